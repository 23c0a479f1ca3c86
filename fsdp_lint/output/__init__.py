"""Renderers of Violations: each format only renders, nothing here decides what is reported."""
