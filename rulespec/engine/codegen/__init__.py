"""The compiler: a checked spec at one table written as Python functions (CPython's
codegen / flowgraph / assemble split): expressions (``exprs.py``, with definitions expanded in
place by ``inline.py`` and shared subexpressions by ``cse.py``), statements to instructions
(``stmts.py``), instructions to one function per procedure (``emit.py``), and the legal-event
enumerators (``enumerators.py``). Generated code runs only through
:func:`rulespec.engine.codegen.pyexec.exec_source`."""
