import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.jobs_list_response_200 import JobsListResponse200
from ...models.jobs_list_status import JobsListStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: JobsListStatus | Unset = UNSET,
    limit: int | Unset = 20,
    before: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status

    params["status"] = json_status

    params["limit"] = limit

    json_before: str | Unset = UNSET
    if not isinstance(before, Unset):
        json_before = before.isoformat()
    params["before"] = json_before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobsListResponse200 | None:
    if response.status_code == 200:
        response_200 = JobsListResponse200.from_dict(response.json())

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
) -> Response[Error | JobsListResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: JobsListStatus | Unset = UNSET,
    limit: int | Unset = 20,
    before: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsListResponse200]:
    """List this thread's jobs

     Lists the jobs this chat thread submitted, newest first: {jobs: [job], next_before}; pass
    next_before as `before` for the next page.

    Runs as the registered session named in the execution headers.

    MCP tool: `list_jobs`.

    Args:
        status (JobsListStatus | Unset): Only jobs in this status.
        limit (int | Unset): At most this many jobs (1-100, default 20). Default: 20.
        before (datetime.datetime | Unset): Only jobs created before this time (the previous
            page's next_before).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsListResponse200]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        before=before,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    status: JobsListStatus | Unset = UNSET,
    limit: int | Unset = 20,
    before: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsListResponse200 | None:
    """List this thread's jobs

     Lists the jobs this chat thread submitted, newest first: {jobs: [job], next_before}; pass
    next_before as `before` for the next page.

    Runs as the registered session named in the execution headers.

    MCP tool: `list_jobs`.

    Args:
        status (JobsListStatus | Unset): Only jobs in this status.
        limit (int | Unset): At most this many jobs (1-100, default 20). Default: 20.
        before (datetime.datetime | Unset): Only jobs created before this time (the previous
            page's next_before).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsListResponse200
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        before=before,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: JobsListStatus | Unset = UNSET,
    limit: int | Unset = 20,
    before: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsListResponse200]:
    """List this thread's jobs

     Lists the jobs this chat thread submitted, newest first: {jobs: [job], next_before}; pass
    next_before as `before` for the next page.

    Runs as the registered session named in the execution headers.

    MCP tool: `list_jobs`.

    Args:
        status (JobsListStatus | Unset): Only jobs in this status.
        limit (int | Unset): At most this many jobs (1-100, default 20). Default: 20.
        before (datetime.datetime | Unset): Only jobs created before this time (the previous
            page's next_before).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsListResponse200]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        before=before,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: JobsListStatus | Unset = UNSET,
    limit: int | Unset = 20,
    before: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsListResponse200 | None:
    """List this thread's jobs

     Lists the jobs this chat thread submitted, newest first: {jobs: [job], next_before}; pass
    next_before as `before` for the next page.

    Runs as the registered session named in the execution headers.

    MCP tool: `list_jobs`.

    Args:
        status (JobsListStatus | Unset): Only jobs in this status.
        limit (int | Unset): At most this many jobs (1-100, default 20). Default: 20.
        before (datetime.datetime | Unset): Only jobs created before this time (the previous
            page's next_before).
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsListResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            before=before,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
