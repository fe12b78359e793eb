"""Differential testing: random autograd programs run through real PyTorch and autograd_py.

``python -m tests.difftest run --n 1000 --seed 1`` compares live (needs torch), ``record`` rewrites
the committed corpus, ``tests/test_difftest_corpus.py`` replays it without torch. See README.md here.
"""
