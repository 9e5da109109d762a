"""The package version, in a module of its own so that any part of the library can read it
without importing the package's ``__init__`` (which would run back up the import tree)."""
__version__ = "0.1.0"
