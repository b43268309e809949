"""RSA signing keys of the sandbox's authorization host: ID tokens (and, for the webhook area, SETs) are signed
RS256 with the active key; ``/.well-known/jwks.json`` lists the active key and the previous ones still kept.

Keys live in the store (table ``signing_keys``), generated lazily on first use. ``kid`` values are
``sandbox-key-1``, ``sandbox-key-2``, ... in order of creation, so they are stable across runs of a fresh
sandbox (the key material itself is random). :meth:`KeyRing.rotate` (control API ``POST /sandbox/keys/rotate``)
makes a new active key and keeps the last :data:`KEEP` keys published, as the real platform publishes several
keys at once; tokens signed with a key that dropped out of the JWKS no longer verify.
"""
from __future__ import annotations

import base64
import threading

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

__all__ = ["KeyRing", "KEEP"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS signing_keys (
    n INTEGER PRIMARY KEY, kid TEXT UNIQUE NOT NULL, pem TEXT NOT NULL, created_at INTEGER NOT NULL
);
"""

KEEP = 2
_LOCK = threading.Lock()


def _b64(value: int) -> str:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class KeyRing:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self.store.script(SCHEMA)
        self._cache: dict[str, object] = {}     # kid -> private key loaded; at most 2 x KEEP (emptied when full:
                                                # every rotation adds a kid, only the last KEEP are used)

    def _new_key(self) -> None:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
        row = self.store.one("SELECT COALESCE(MAX(n), 0) AS n FROM signing_keys")
        n = row["n"] + 1
        self.store.execute("INSERT INTO signing_keys VALUES (?, ?, ?, ?)", n, f"sandbox-key-{n}", pem,
                           self.sandbox.clock.unix())

    def _rows(self):
        with _LOCK:
            rows = self.store.all("SELECT * FROM signing_keys ORDER BY n DESC LIMIT ?", KEEP)
            if not rows:
                self._new_key()
                rows = self.store.all("SELECT * FROM signing_keys ORDER BY n DESC LIMIT ?", KEEP)
        return rows

    def _private(self, row):
        key = self._cache.get(row["kid"])
        if key is None:
            key = serialization.load_pem_private_key(row["pem"].encode(), password=None)
            if len(self._cache) >= 2 * KEEP:
                self._cache.clear()
            self._cache[row["kid"]] = key
        return key

    def active_kid(self) -> str:
        return self._rows()[0]["kid"]

    def sign(self, claims: dict, *, typ: str = "JWT") -> str:
        """A compact RS256 JWT of ``claims`` signed with the active key (header carries ``kid``)."""
        row = self._rows()[0]
        return jwt.encode(claims, self._private(row), algorithm="RS256", headers={"kid": row["kid"], "typ": typ})

    def public_key(self, kid: str):
        for row in self._rows():
            if row["kid"] == kid:
                return self._private(row).public_key()
        return None

    def jwks(self) -> dict:
        keys = []
        for row in self._rows():
            numbers = self._private(row).public_key().public_numbers()
            keys.append({"kid": row["kid"], "kty": "RSA", "alg": "RS256", "use": "sig",
                         "n": _b64(numbers.n), "e": _b64(numbers.e)})
        return {"keys": keys}

    def rotate(self) -> dict:
        with _LOCK:
            self._new_key()
        return {"active_kid": self.active_kid(), "published": [k["kid"] for k in self.jwks()["keys"]]}

    def verify(self, token: str, *, audience: str | None = None, issuer: str | None = None,
               verify_exp: bool = True) -> dict:
        """Decode and verify a token signed by this ring (raises ``jwt.PyJWTError``)."""
        header = jwt.get_unverified_header(token)
        key = self.public_key(header.get("kid", ""))
        if key is None:
            raise jwt.InvalidKeyError("unknown kid")
        now = self.sandbox.clock.unix()
        claims = jwt.decode(token, key, algorithms=["RS256"], audience=audience, issuer=issuer,
                            options={"verify_exp": False, "verify_aud": audience is not None,
                                     "verify_iat": False})
        if verify_exp and int(claims.get("exp", 0)) <= now:
            raise jwt.ExpiredSignatureError("the token has expired")
        return claims
