"""The developers' tools of the checkout, not shipped in the wheel: the benchmark
(`python -m tests.tools.bench`, also `sombra-tui bench` from a checkout) and the
screenshots (`python -m tests.tools.screenshots`). They use the tests' helpers
(tests/builders.py, tests/app/drivers.py); the tests never import them but to test them."""
