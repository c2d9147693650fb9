from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.jobs_submit_embedding_refresh_body import JobsSubmitEmbeddingRefreshBody
from ...models.jobs_submit_embedding_refresh_response_202 import (
    JobsSubmitEmbeddingRefreshResponse202,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    repo: str,
    *,
    body: JobsSubmitEmbeddingRefreshBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/repos/{repo}/embeddings/refresh".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobsSubmitEmbeddingRefreshResponse202 | None:
    if response.status_code == 202:
        response_202 = JobsSubmitEmbeddingRefreshResponse202.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | JobsSubmitEmbeddingRefreshResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: JobsSubmitEmbeddingRefreshBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsSubmitEmbeddingRefreshResponse202]:
    """Refresh repository embeddings

     Queues an embedding refresh of the repository's durable nodes that lack a vector, in bounded
    batches. Needs write permission. Returns {job_id}; wait for it with get_job (wait_ms), GET
    /api/v1/jobs/{id}?wait= or the job's event stream.

    Runs as the registered session named in the execution headers.

    MCP tool: `submit_embedding_refresh`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        idempotency_key (str | Unset): Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = -
            (a UUID is ideal). Retrying a call with the same key within 24 h returns the job the first
            call created ({job_id, replayed: true}) instead of queuing another; the same key with
            other arguments is refused (idempotency_key_reused).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (JobsSubmitEmbeddingRefreshBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsSubmitEmbeddingRefreshResponse202]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        idempotency_key=idempotency_key,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: JobsSubmitEmbeddingRefreshBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsSubmitEmbeddingRefreshResponse202 | None:
    """Refresh repository embeddings

     Queues an embedding refresh of the repository's durable nodes that lack a vector, in bounded
    batches. Needs write permission. Returns {job_id}; wait for it with get_job (wait_ms), GET
    /api/v1/jobs/{id}?wait= or the job's event stream.

    Runs as the registered session named in the execution headers.

    MCP tool: `submit_embedding_refresh`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        idempotency_key (str | Unset): Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = -
            (a UUID is ideal). Retrying a call with the same key within 24 h returns the job the first
            call created ({job_id, replayed: true}) instead of queuing another; the same key with
            other arguments is refused (idempotency_key_reused).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (JobsSubmitEmbeddingRefreshBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsSubmitEmbeddingRefreshResponse202
    """

    return sync_detailed(
        repo=repo,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: JobsSubmitEmbeddingRefreshBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsSubmitEmbeddingRefreshResponse202]:
    """Refresh repository embeddings

     Queues an embedding refresh of the repository's durable nodes that lack a vector, in bounded
    batches. Needs write permission. Returns {job_id}; wait for it with get_job (wait_ms), GET
    /api/v1/jobs/{id}?wait= or the job's event stream.

    Runs as the registered session named in the execution headers.

    MCP tool: `submit_embedding_refresh`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        idempotency_key (str | Unset): Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = -
            (a UUID is ideal). Retrying a call with the same key within 24 h returns the job the first
            call created ({job_id, replayed: true}) instead of queuing another; the same key with
            other arguments is refused (idempotency_key_reused).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (JobsSubmitEmbeddingRefreshBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsSubmitEmbeddingRefreshResponse202]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        idempotency_key=idempotency_key,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: JobsSubmitEmbeddingRefreshBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsSubmitEmbeddingRefreshResponse202 | None:
    """Refresh repository embeddings

     Queues an embedding refresh of the repository's durable nodes that lack a vector, in bounded
    batches. Needs write permission. Returns {job_id}; wait for it with get_job (wait_ms), GET
    /api/v1/jobs/{id}?wait= or the job's event stream.

    Runs as the registered session named in the execution headers.

    MCP tool: `submit_embedding_refresh`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        idempotency_key (str | Unset): Optional, 1-255 characters of A-Z a-z 0-9 . _ : ~ + / = -
            (a UUID is ideal). Retrying a call with the same key within 24 h returns the job the first
            call created ({job_id, replayed: true}) instead of queuing another; the same key with
            other arguments is refused (idempotency_key_reused).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (JobsSubmitEmbeddingRefreshBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsSubmitEmbeddingRefreshResponse202
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
