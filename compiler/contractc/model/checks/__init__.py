"""Receiver checks compiled from their prose: the rule vocabulary, the forms, the compiler.

``rules`` is the typed vocabulary (what other features read), ``forms`` finds the
forms a contract defines, ``compile`` turns each check's prose into rules.  Running
the rules over a return is :mod:`contractc.validate.text`.
"""
