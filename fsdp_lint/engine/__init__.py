"""The static engine: find and read the files, analyse the tree (`fsdp_lint.analysis`), run the
rules over it, cache the results. It knows no particular rule and never imports torch."""
