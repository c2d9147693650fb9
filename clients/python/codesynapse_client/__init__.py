"""CodeSynapse for Python agent runtimes.

``codesynapse_api`` is generated from the platform's OpenAPI document (every
catalog operation, typed; ``npm run client:generate:python``). This module is
the small layer the document cannot say:

* ``ThreadClient``: one chat thread. The API key and the thread's session ID
  are given once and every call carries them (``Authorization`` and both
  execution headers); they never appear in an error, a ``repr`` or a message.
* ``call(endpoint, ...)``: runs any generated endpoint module as this thread
  and returns its parsed answer, or raises ``CodeSynapseError`` with the
  platform's stable code.
* ``register()``, ``revoke()``, ``identity()`` and ``wait_for_job()`` (a
  long-poll of ``GET /api/v1/jobs/{id}?wait=``, so a wait costs one request per
  25 s, not a poll every few hundred milliseconds).
"""

from __future__ import annotations

import inspect
import time
from types import ModuleType
from typing import Any

import httpx

from codesynapse_api import AuthenticatedClient
from codesynapse_api.api.execution import execution_identity, execution_register_session, execution_revoke_session
from codesynapse_api.api.jobs import jobs_get
from codesynapse_api.models import Error, ExecutionRegisterSessionBody

__all__ = ["CodeSynapseError", "ThreadClient", "TERMINAL_STATUSES"]

#: A job in one of these has ended; ``wait_for_job`` returns it.
TERMINAL_STATUSES = frozenset({"succeeded", "failed", "canceled", "abandoned", "refused"})

#: The longest the server holds one read (30 s); a little under, so proxies see traffic.
_LONG_POLL_MS = 25_000

_SESSION_KWARGS = ("x_codesynapse_session", "x_codesynapse_parent_session")


class CodeSynapseError(Exception):
    """A refusal or failure: ``code`` is the platform's stable code (``session_revoked``,
    ``repo_permission_denied``, …) or one of the client's own (``unexpected_response``,
    ``wait_timeout``); ``message`` is the server's fixed text for it."""

    def __init__(self, code: str, status: int | None, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.status = status
        self.message = message
        self.details = details or {}


class ThreadClient:
    """One chat thread: ``ThreadClient(base_url, api_key, session_id)``, then ``register()``."""

    def __init__(self, base_url: str, api_key: str, session_id: str, *, timeout: float = 60.0) -> None:
        if not api_key:
            raise CodeSynapseError("unauthenticated", None, "An API key is required.")
        if not session_id:
            raise CodeSynapseError("invalid_session_header", None, "The chat thread's session ID is required.")
        self.__session_id = session_id
        # Reads that wait (?wait=) are held up to 30 s: the read timeout allows for it.
        self.api = AuthenticatedClient(base_url=base_url.rstrip("/"), token=api_key, timeout=httpx.Timeout(timeout, read=max(timeout, 40.0)))

    def __repr__(self) -> str:
        return f"ThreadClient(base_url={self.api._base_url!r})"

    def call(self, endpoint: ModuleType, *args: Any, **kwargs: Any) -> Any:
        """Runs a generated endpoint module (``codesynapse_api.api.<tag>.<operation>``) as this
        thread: the execution headers are filled in (and cannot be replaced) where the operation
        takes them. Returns the parsed answer (None for 204)."""
        fn = endpoint.sync_detailed
        takes = inspect.signature(fn).parameters
        for name in _SESSION_KWARGS:
            kwargs.pop(name, None)
            if name in takes:
                kwargs[name] = self.__session_id
        response = fn(*args, client=self.api, **kwargs)
        status = int(response.status_code)
        if 200 <= status < 300:
            return response.parsed
        parsed = response.parsed
        if isinstance(parsed, Error):
            err = parsed.error
            details = err.details.to_dict() if hasattr(err.details, "to_dict") else None
            raise CodeSynapseError(str(err.code), status, err.message, details)
        raise CodeSynapseError("unexpected_response", status, "The server answered with a status the document does not give.")

    def register(self) -> Any:
        """Registers this thread's session (201 the first time, the same binding after that)."""
        return self.call(execution_register_session, body=ExecutionRegisterSessionBody(session_id=self.__session_id))

    def revoke(self) -> None:
        """Revokes this thread's session for good; every later call is ``session_revoked``."""
        self.call(execution_revoke_session, self.__session_id)

    def identity(self) -> Any:
        """The execution identity the server resolves for this thread."""
        return self.call(execution_identity)

    def wait_for_job(self, job_id: str, timeout: float = 600.0) -> Any:
        """Returns the job once its status is terminal, whatever the outcome (look at ``status``
        and ``error_code``); ``wait_timeout`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        pause = 0.1
        while True:
            left_ms = int((deadline - time.monotonic()) * 1000)
            job = self.call(jobs_get, job_id, wait=max(0, min(left_ms, _LONG_POLL_MS)))
            if job.status in TERMINAL_STATUSES:
                return job
            if time.monotonic() >= deadline:
                raise CodeSynapseError("wait_timeout", None, "The job did not end before the wait's timeout.")
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 2, 2.0)
