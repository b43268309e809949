"""The version of toolkit, in a module of its own so that the core reads it without importing the package."""

__version__ = "0.1.0"
