"""Recipes for the launchers."""
