"""The version of toolkit, in a module of its own so that the core reads it without importing the package.

The build writes it from git (setuptools-scm, see setup.py's ``version_scheme``) into ``_scm_version.py``: a
release is ``X.Y.Z``, a build between releases ``X.Y.(Z+1).devN+g<commit>``. In a checkout it is the version of
the last ``pip install -e``; a source tree never built or installed says ``0+unknown``."""

try:
    from ._scm_version import __version__
except ImportError:                 # a source tree that was never built or installed
    __version__ = "0+unknown"
