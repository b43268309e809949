"""Where the client talks to, and with which credentials.

The spec names five hosts. The client only knows five base URLs (:class:`Hosts`); the keys and the client
secret live in :class:`Credentials` as :class:`~toolkit.secrets.Secret` values.

Configuration comes from arguments or from ``TOOLKIT_*`` environment variables:

==========================  ===========================================
``TOOLKIT_AUTH_URL``        base URL of ``{auth_url}``
``TOOLKIT_API_URL``         base URL of ``{api_url}``
``TOOLKIT_LOCAL_URL``       base URL of ``{local_url}``
``TOOLKIT_NAVI_URL``        base URL of ``{navi_url}``
``TOOLKIT_STATUS_URL``      base URL of ``{status_url}``
``TOOLKIT_REST_API_KEY``    REST API key of the app
``TOOLKIT_ADMIN_KEY``       admin key of the app
``TOOLKIT_CLIENT_SECRET``   client secret of the REST API key
``TOOLKIT_APP_ID``          app id (optional)
``TOOLKIT_REDIRECT_URI``    redirect URI registered for the key (optional)
``TOOLKIT_APP_KEY_SCHEME``  the word sent before app keys (optional; default ``ServiceAK``, as the spec says)
==========================  ===========================================

>>> Hosts.on_one_port("http://127.0.0.1:8000").local
'http://127.0.0.1:8000/local'
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields, replace
from typing import Mapping

from .errors import ConfigurationError
from .secrets import Secret

__all__ = ["Hosts", "Credentials", "Config", "HOST_NAMES", "APP_KEY_SCHEME", "BaseURLError"]

HOST_NAMES = ("auth", "api", "local", "navi", "status")

APP_KEY_SCHEME = "ServiceAK"
"""The spec's word before an app key: ``Authorization: ServiceAK <key>``."""
_SCHEME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9._~+-]{0,63}")


class BaseURLError(ConfigurationError, ValueError):
    """A base URL that is not one (a placeholder such as ``https://…``, no host, another scheme): raised when the
    configuration is made, naming the host key and what a base URL looks like, before any request.

    >>> Hosts.on_one_port("https://…")                   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    toolkit.config.BaseURLError: base URL of the 'auth' host is 'https://…/auth': ...
    """


URL_SHAPE = ("a base URL is http:// or https://, a host name and optionally :port and a path, e.g. "
             "'https://api.example.com' or 'http://127.0.0.1:8080/api'")


_HOST = re.compile(r"[A-Za-z0-9_.-]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")
"""A host as httpx sends it (IDNA-encoded): a name or an IPv4 address, or an IPv6 address."""


def _check_base_url(name: str, value) -> None:
    """Refuse a value that cannot be a base URL, with a :class:`BaseURLError` naming the host key and the shape
    of a base URL (the host is parsed as httpx will, so a placeholder fails here, not deep inside a request)."""
    where = f"connect(hosts={{{name!r}: ...}}) or TOOLKIT_{name.upper()}_URL"
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise BaseURLError(f"base URL of the {name!r} host is {value!r}: it must start with http:// or https://; "
                           f"{URL_SHAPE} (check {where})")
    import httpx

    try:
        host = httpx.URL(value).raw_host.decode("ascii")
    except (httpx.InvalidURL, UnicodeError, ValueError) as exc:
        reason = f"not a URL ({exc})"
    else:
        reason = ("it has no host name" if not host else "" if _HOST.fullmatch(host) else
                  f"not a URL (the host {host!r} is not a host name)")
    if reason:
        raise BaseURLError(f"base URL of the {name!r} host is {value!r}: {reason}; {URL_SHAPE}; replace a "
                           f"placeholder with the service's address (check {where})") from None


@dataclass(frozen=True)
class Hosts:
    """The five base URLs, without a trailing slash."""

    auth: str
    api: str
    local: str
    navi: str
    status: str

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            _check_base_url(f.name, value)
            object.__setattr__(self, f.name, value.rstrip("/"))

    @classmethod
    def on_one_port(cls, base: str) -> "Hosts":
        """The sandbox layout: all five hosts under one origin, mounted at ``/auth``, ``/api``, ..."""
        base = base.rstrip("/")
        return cls(**{name: f"{base}/{name}" for name in HOST_NAMES})

    def url(self, host: str, path: str) -> str:
        if host not in HOST_NAMES:
            raise ValueError(f"unknown host {host!r}; one of {HOST_NAMES}")
        return getattr(self, host) + path

    def as_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in HOST_NAMES}


@dataclass(frozen=True)
class Credentials:
    """Keys of one app. Every value is a :class:`Secret` (masked in any output)."""

    rest_api_key: Secret | None = None
    admin_key: Secret | None = None
    client_secret: Secret | None = None
    app_id: str | None = None
    redirect_uri: str | None = None
    app_key_scheme: str = APP_KEY_SCHEME
    """The word sent before every app key (REST, admin and the others): ``Authorization: <word> <key>``. The
    spec's word is ``ServiceAK``; a deployment that expects another (e.g. ``KakaoAK``) is reached with
    ``connect(app_key_scheme="KakaoAK")`` or ``TOOLKIT_APP_KEY_SCHEME``. The sandbox accepts both."""
    extra: Mapping[str, object] = field(default_factory=dict, repr=False)
    """Other settings of the app (e.g. the sandbox demo app's); values of keys and secrets are wrapped."""

    def __post_init__(self):
        scheme = APP_KEY_SCHEME if self.app_key_scheme in (None, "") else self.app_key_scheme
        if not isinstance(scheme, str) or not _SCHEME_WORD.fullmatch(scheme):
            raise ConfigurationError(f"app_key_scheme={scheme!r} is not a word an Authorization header can carry "
                                     "(letters, digits and -._~+; e.g. 'ServiceAK' or 'KakaoAK'): check "
                                     "app_key_scheme= of connect() or TOOLKIT_APP_KEY_SCHEME")
        object.__setattr__(self, "app_key_scheme", scheme)
        for name in ("rest_api_key", "admin_key", "client_secret"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Secret):
                object.__setattr__(self, name, Secret(value))
        wrapped = {k: Secret(v) if isinstance(v, str) and ("key" in k or "secret" in k) else v
                   for k, v in dict(self.extra).items()}
        object.__setattr__(self, "extra", wrapped)

    def need(self, name: str) -> Secret:
        """The key ``name`` (``rest_api_key``, ``admin_key`` or ``client_secret``), or a
        :class:`~toolkit.errors.ConfigurationError` saying how to set it.

        >>> Credentials(rest_api_key="k").need("admin_key")
        Traceback (most recent call last):
        ...
        toolkit.errors.ConfigurationError: this call needs the app's admin_key: pass admin_key= to connect() or set TOOLKIT_ADMIN_KEY
        """
        value = getattr(self, name)
        if not value:
            raise ConfigurationError(f"this call needs the app's {name}: pass {name}= to connect() or set "
                                     f"TOOLKIT_{name.upper()}")
        return value


@dataclass(frozen=True)
class Config:
    hosts: Hosts
    credentials: Credentials
    timeout: float = 10.0
    """Seconds for one attempt (connect, read, write); always set."""
    total_timeout: float = 30.0
    """Cap in seconds on one call with all its retries."""
    max_attempts: int = 4

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides) -> "Config | None":
        """A config from ``TOOLKIT_*`` variables, or None when no base URL is configured there."""
        env = os.environ if env is None else env
        urls = {name: env.get(f"TOOLKIT_{name.upper()}_URL") for name in HOST_NAMES}
        if not any(urls.values()):
            return None
        missing = [f"TOOLKIT_{n.upper()}_URL" for n, v in urls.items() if not v]
        if missing:
            given = [f"TOOLKIT_{n.upper()}_URL" for n, v in urls.items() if v]
            raise ConfigurationError(
                f"incomplete configuration: {', '.join(given)} {'is' if len(given) == 1 else 'are'} set but "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing; set all five base URLs for "
                "a real service, or none of them for the embedded sandbox")
        secret = lambda name: Secret(value) if (value := env.get(name)) else None  # noqa: E731
        creds = Credentials(
            rest_api_key=secret("TOOLKIT_REST_API_KEY"),
            admin_key=secret("TOOLKIT_ADMIN_KEY"),
            client_secret=secret("TOOLKIT_CLIENT_SECRET"),
            app_id=env.get("TOOLKIT_APP_ID") or None,
            redirect_uri=env.get("TOOLKIT_REDIRECT_URI") or None,
            app_key_scheme=env.get("TOOLKIT_APP_KEY_SCHEME") or APP_KEY_SCHEME,
        )
        given_urls = {n: v for n, v in urls.items() if v}     # all five: none is missing
        return replace(cls(hosts=Hosts(**given_urls), credentials=creds), **overrides)
