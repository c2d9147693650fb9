from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.jobs_get_response_200 import JobsGetResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    wait: int | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{id}".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobsGetResponse200 | None:
    if response.status_code == 200:
        response_200 = JobsGetResponse200.from_dict(response.json())

        return response_200

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | JobsGetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    wait: int | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsGetResponse200]:
    """Job status

     Returns a job this chat thread submitted: {id, kind, pool, status
    (queued|running|succeeded|failed|canceled|abandoned|refused), repo_id, params, result, error_code,
    message (why, in words, beside error_code), attempts, max_attempts, cancel_requested, progress
    ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at, follow_ups
    ([{job_id, kind, status}]: the jobs its run started, such as an ingest's embedding jobs), recall
    (for a succeeded ingest or embedding job: "complete" once every node of the repository is embedded,
    else "partial"; null otherwise)}. Ask questions once an ingest's recall is complete. Jobs of other
    threads or users are not visible (job_not_found). With `wait_ms` (at most 30000) it waits for the
    job to end and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or
    with the current status when the wait runs out.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        wait (int | Unset): Milliseconds to wait for the job to end, 0 to 30000 (default 0: answer
            at once).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsGetResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        wait=wait,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    wait: int | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsGetResponse200 | None:
    """Job status

     Returns a job this chat thread submitted: {id, kind, pool, status
    (queued|running|succeeded|failed|canceled|abandoned|refused), repo_id, params, result, error_code,
    message (why, in words, beside error_code), attempts, max_attempts, cancel_requested, progress
    ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at, follow_ups
    ([{job_id, kind, status}]: the jobs its run started, such as an ingest's embedding jobs), recall
    (for a succeeded ingest or embedding job: "complete" once every node of the repository is embedded,
    else "partial"; null otherwise)}. Ask questions once an ingest's recall is complete. Jobs of other
    threads or users are not visible (job_not_found). With `wait_ms` (at most 30000) it waits for the
    job to end and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or
    with the current status when the wait runs out.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        wait (int | Unset): Milliseconds to wait for the job to end, 0 to 30000 (default 0: answer
            at once).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsGetResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        wait=wait,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    wait: int | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsGetResponse200]:
    """Job status

     Returns a job this chat thread submitted: {id, kind, pool, status
    (queued|running|succeeded|failed|canceled|abandoned|refused), repo_id, params, result, error_code,
    message (why, in words, beside error_code), attempts, max_attempts, cancel_requested, progress
    ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at, follow_ups
    ([{job_id, kind, status}]: the jobs its run started, such as an ingest's embedding jobs), recall
    (for a succeeded ingest or embedding job: "complete" once every node of the repository is embedded,
    else "partial"; null otherwise)}. Ask questions once an ingest's recall is complete. Jobs of other
    threads or users are not visible (job_not_found). With `wait_ms` (at most 30000) it waits for the
    job to end and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or
    with the current status when the wait runs out.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        wait (int | Unset): Milliseconds to wait for the job to end, 0 to 30000 (default 0: answer
            at once).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsGetResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        wait=wait,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    wait: int | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsGetResponse200 | None:
    """Job status

     Returns a job this chat thread submitted: {id, kind, pool, status
    (queued|running|succeeded|failed|canceled|abandoned|refused), repo_id, params, result, error_code,
    message (why, in words, beside error_code), attempts, max_attempts, cancel_requested, progress
    ({done, total} files for ingest, or null), created_at, run_at, started_at, finished_at, follow_ups
    ([{job_id, kind, status}]: the jobs its run started, such as an ingest's embedding jobs), recall
    (for a succeeded ingest or embedding job: "complete" once every node of the repository is embedded,
    else "partial"; null otherwise)}. Ask questions once an ingest's recall is complete. Jobs of other
    threads or users are not visible (job_not_found). With `wait_ms` (at most 30000) it waits for the
    job to end and returns as soon as it has (succeeded, failed, canceled, abandoned or refused), or
    with the current status when the wait runs out.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        wait (int | Unset): Milliseconds to wait for the job to end, 0 to 30000 (default 0: answer
            at once).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsGetResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            wait=wait,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
