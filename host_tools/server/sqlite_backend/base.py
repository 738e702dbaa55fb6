"""Django's SQLite backend, with write transactions queued on a file lock.

SQLite lets one writer in at a time; a second one gets SQLITE_BUSY and its busy handler sleeps
and polls (1, 2, 5 ... 100 ms), so under 250 uploading boxes most of the time goes to sleeping
and the slowest requests wait seconds. Here every ``BEGIN IMMEDIATE`` first takes an exclusive
``flock`` on ``<database>-writelock``: writers from all threads and all gunicorn workers queue in
the kernel and are woken the moment the previous one commits. Readers (WAL) never take it.
Writes outside ``atomic()`` still go through SQLite's own busy timeout; the hot paths (uploads,
referee actions) all run in ``atomic()``.
"""
from __future__ import annotations

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _lock_fd = None

    def _lock_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if self.is_in_memory_db() or name.startswith("file:"):
            return None
        return name + "-writelock"

    def _acquire(self) -> None:
        path = self._lock_path()
        if path is None:
            return
        if self._lock_fd is None:
            self._lock_fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)

    def _release(self) -> None:
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self):
        self._acquire()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release()

    def _close(self):
        try:
            return super()._close()
        finally:
            if self._lock_fd is not None:
                os.close(self._lock_fd)  # closing the descriptor drops any lock it holds
                self._lock_fd = None
