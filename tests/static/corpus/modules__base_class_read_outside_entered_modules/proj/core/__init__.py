from .module import Module
