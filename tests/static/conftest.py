# The corpus holds the programs the linter is run on (some are pytest test modules of a linted
# project, `test_trainer.py`): they are data, never collected as this suite's tests.
collect_ignore_glob = ["corpus/*"]
