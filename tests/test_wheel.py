"""The wheel ships the grammar and the games: build it, install it in a fresh virtual
environment, and run ``rulespec`` from another directory (no repository on the path)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_and_runs_elsewhere(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(dist), str(ROOT)], check=True)
    wheel = next(dist.glob("rulespec-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    # The dependencies (lark, attrs, click...) come from this environment's site-packages,
    # added as a plain path: its .pth files, the editable install of this checkout among them,
    # are not run, so only the wheel can provide rulespec.
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = subprocess.run([str(py), "-c", ask], capture_output=True, text=True,
                          check=True).stdout.strip()
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site, "deps-from-test-runner.pth").write_text("\n".join(sorted(here)) + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = subprocess.run([str(py), "-c", "import rulespec, sys; print(rulespec.__file__)"],
                         cwd=elsewhere, capture_output=True, text=True, check=True).stdout
    assert str(env_dir) in out, f"imported the repository's copy: {out}"
    rs = env_dir / "bin" / "rulespec"
    res = subprocess.run([str(rs), "check", "vandatta"], cwd=elsewhere, capture_output=True,
                         text=True)
    assert res.returncode == 0, res.stderr
    assert "ok: Vändåtta" in res.stdout
    res = subprocess.run([str(rs), "simulate", "vandatta", "-p", "3", "-n", "2", "--json"],
                         cwd=elsewhere, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    # the web page's style sheet is a file of the package (rulespec/book/page.css), read
    # through importlib.resources: the wheel carries it
    res = subprocess.run([str(rs), "doc", "crazy-eights", "--format", "html"], cwd=elsewhere,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "<style>" in res.stdout and "@container book" in res.stdout
