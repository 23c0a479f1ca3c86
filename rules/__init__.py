"""Static rules, one contract per module (``fsdNNN_<name>.py``); see ``fsdp_lint.engine.rule.Rule``."""
