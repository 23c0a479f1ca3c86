"""Quantization helpers, re-exported whole."""

from .fsdp_utils import *
