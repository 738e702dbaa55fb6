"""Accounts, passwords and login tokens. Roles: organizer (everything) and referee (corrections,
penalties, play-offs); reading is public.

* Passwords: hashlib.scrypt (n=2**14, r=8, p=1, 16-byte salt), stored as
  ``scrypt$n$r$p$salt_hex$hash_hex``; checked in constant time.
* Login gives a random bearer token (32 bytes, urlsafe); the database keeps only its SHA-256, with
  an expiry (12 hours), so a leaked database holds no usable token. API clients send
  ``Authorization: Bearer TOKEN``; the pages keep the same token in an HttpOnly, SameSite=Strict
  cookie, and their forms carry a CSRF value derived from the token.
* Deactivating an account or changing its password revokes its tokens.
"""
from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Optional

ROLES = ("organizer", "referee")
TOKEN_TTL = 12 * 3600
SCRYPT = (2**14, 8, 1)
MIN_PASSWORD = 8


class AuthError(Exception):
    """403 (or 401 when nobody is logged in)."""


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    role: str

    def can(self, role: str) -> bool:
        return self.role == "organizer" or self.role == role


def hash_password(password: str, salt: Optional[bytes] = None) -> str:
    salt = salt or secrets.token_bytes(16)
    n, r, p = SCRYPT
    h = hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return "scrypt$%d$%d$%d$%s$%s" % (n, r, p, salt.hex(), h.hex())


def check_password(password: str, stored: str) -> bool:
    try:
        algo, n, r, p, salt, h = stored.split("$")
        if algo != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(h) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), h)


_DUMMY = hash_password("timing-equaliser")


def _now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_for(token: str) -> str:
    return hashlib.sha256(b"csrf\x00" + token.encode()).hexdigest()[:32]


def create_account(tx, username: str, password: str, role: str) -> int:
    if role not in ROLES:
        raise ValueError("role must be organizer or referee")
    if len(password) < MIN_PASSWORD:
        raise ValueError("passwords need at least %d characters" % MIN_PASSWORD)
    return tx.insert(
        "INSERT INTO accounts (username, password_hash, role, active, created_at) VALUES (?, ?, ?, 1, ?)",
        (username, hash_password(password), role, _now_iso()),
    )


def login(tx, username: str, password: str) -> Optional[tuple[str, Account]]:
    row = tx.one("SELECT id, username, role, password_hash, active FROM accounts WHERE username = ?", (username,))
    if row is None:
        check_password(password, _DUMMY)  # same time whether or not the name exists
        return None
    if not check_password(password, row["password_hash"]) or not row["active"]:
        return None
    token = secrets.token_urlsafe(32)
    tx.execute(
        "INSERT INTO auth_tokens (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
        (token_hash(token), row["id"], _now_iso(), int(time.time()) + TOKEN_TTL),
    )
    return token, Account(row["id"], row["username"], row["role"])


def account_for(tx, token: Optional[str]) -> Optional[Account]:
    if not token or len(token) > 200:
        return None
    row = tx.one(
        "SELECT a.id, a.username, a.role FROM auth_tokens t JOIN accounts a ON a.id = t.account_id "
        "WHERE t.token_hash = ? AND t.expires_at > ? AND a.active = 1",
        (token_hash(token), int(time.time())),
    )
    return Account(row["id"], row["username"], row["role"]) if row else None


def logout(tx, token: str) -> None:
    tx.execute("DELETE FROM auth_tokens WHERE token_hash = ?", (token_hash(token),))


def revoke_tokens(tx, account_id: int) -> None:
    tx.execute("DELETE FROM auth_tokens WHERE account_id = ?", (account_id,))
