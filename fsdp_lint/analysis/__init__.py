"""Whole-tree facts about FSDP2 code: names, values and program order, computed once per run."""
