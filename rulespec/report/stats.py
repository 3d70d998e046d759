"""The statistics of a simulation report: 95% intervals for a proportion (Wilson's score
interval), for a mean (Student's t), and for the difference of two settings' proportions
(Newcombe's hybrid score interval) and means (Welch's t)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

__all__ = ["Interval", "Z95", "mean_interval", "mean_difference", "proportion_difference",
           "t_quantile", "wilson"]

#: the standard normal's 97.5% quantile: a two-sided 95% interval is ±Z95 standard errors
Z95 = 1.959963984540054


@attrs.frozen
class Interval:
    """An estimate with its 95% interval ``[low, high]``."""

    estimate: float
    low: float
    high: float

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval (a difference that excludes 0 is
        significant at the 5% level)."""
        return value < self.low or value > self.high

    def to_json(self) -> dict[str, float | None]:
        """The three numbers (None where one is not a finite number)."""
        return {k: (v if math.isfinite(v) else None) for k, v in
                (("estimate", self.estimate), ("low", self.low), ("high", self.high))}


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """The proportion ``successes / n`` and its Wilson score interval (Wilson 1927; the
    interval Newcombe 1998 recommends for one proportion): unlike the textbook ``p ± z·se`` it
    stays within [0, 1] and does not collapse to a point at 0 or ``n`` successes. With no
    trials, the proportion is unknown: 0 within [0, 1]."""
    if n <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    # rounding may leave an end a hair inside p (at 0 or n successes): the interval holds p
    return Interval(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def t_quantile(df: float, q: float = 0.975) -> float:
    """Student's t quantile for ``df`` degrees of freedom: exact for 1 and 2, else the
    Cornish-Fisher expansion around the normal quantile (Abramowitz and Stegun 26.7.5), at
    97.5% within 0.004 of the tables at 3 degrees of freedom and 0.001 from 4 on."""
    if q == 0.975:
        z = Z95
    else:
        z = _normal_quantile(q)
    if not math.isfinite(df) or df > 1e7:
        return z
    if df <= 1:
        return math.tan(math.pi * (q - 0.5))
    if df == 2:
        a = 4 * q * (1 - q)
        return 2 * (q - 0.5) * math.sqrt(2 / a)
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def _normal_quantile(q: float) -> float:
    """The standard normal quantile, by bisection on ``erf`` (used only off 97.5%)."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _moments(values: Sequence[float]) -> tuple[int, float, float]:
    """Count, mean and sample variance (n - 1), by Welford's running sums (no loss of
    precision for large totals)."""
    n, mean, m2 = 0, 0.0, 0.0
    for x in values:
        n += 1
        d = float(x) - mean
        mean += d / n
        m2 += d * (float(x) - mean)
    return n, mean, (m2 / (n - 1) if n > 1 else 0.0)


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` and its 95% interval, ``mean ± t·s/√n`` (Student's t with
    ``n - 1`` degrees of freedom). One value: the interval is unbounded; none: NaN."""
    n, mean, var = _moments(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan)
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    half = t_quantile(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def proportion_difference(k1: float, n1: int, k2: float, n2: int) -> Interval:
    """``k2/n2 - k1/n1`` (the second setting less the first) and its 95% interval by
    Newcombe's hybrid score method (Newcombe 1998, method 10), which combines the two Wilson
    intervals and, like them, behaves at proportions near 0 or 1."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = b.estimate - a.estimate
    low = d - math.sqrt((b.estimate - b.low) ** 2 + (a.high - a.estimate) ** 2)
    high = d + math.sqrt((b.high - b.estimate) ** 2 + (a.estimate - a.low) ** 2)
    return Interval(d, low, high)


def mean_difference(first: Sequence[float], second: Sequence[float]) -> Interval:
    """``mean(second) - mean(first)`` and its 95% interval by Welch's t (unequal variances;
    the Welch-Satterthwaite degrees of freedom)."""
    n1, m1, v1 = _moments(first)
    n2, m2, v2 = _moments(second)
    if n1 < 2 or n2 < 2:
        d = m2 - m1 if n1 and n2 else math.nan
        return Interval(d, -math.inf, math.inf) if n1 and n2 else Interval(d, d, d)
    se2 = v1 / n1 + v2 / n2
    if se2 == 0:
        return Interval(m2 - m1, m2 - m1, m2 - m1)
    df = se2 ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    half = t_quantile(df) * math.sqrt(se2)
    return Interval(m2 - m1, m2 - m1 - half, m2 - m1 + half)
