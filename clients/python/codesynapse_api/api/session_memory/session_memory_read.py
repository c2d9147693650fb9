import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.session_memory_read_response_200 import SessionMemoryReadResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    repo: str,
    *,
    q: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    params: dict[str, Any] = {}

    params["q"] = q

    params["limit"] = limit

    json_as_of: str | Unset = UNSET
    if not isinstance(as_of, Unset):
        json_as_of = as_of.isoformat()
    params["as_of"] = json_as_of

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/repos/{repo}/session-memory".format(
            repo=quote(str(repo), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SessionMemoryReadResponse200 | None:
    if response.status_code == 200:
        response_200 = SessionMemoryReadResponse200.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | SessionMemoryReadResponse200]:
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
    q: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryReadResponse200]:
    """Read this thread's memory

     Lists the entities and facts in THIS chat thread's session memory for the repository, optionally
    filtered by a case-insensitive substring q. Only facts current now, unless as_of asks what the
    thread believed at that time. Answers {entities: [...], facts: [{fact_id, subject, predicate,
    object, valid_from}], revision, extraction}: extraction counts what offload_turns did in this
    namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).

    Runs as the registered session named in the execution headers.

    MCP tool: `read_session_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        q (str | Unset): Only entities and facts whose names, types or predicate contain this
            text.
        limit (int | Unset): At most this many entities and facts (default 100).
        as_of (datetime.datetime | Unset): Answer what the thread believed at this time (platform
            clock): the facts current then, including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryReadResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        q=q,
        limit=limit,
        as_of=as_of,
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
    q: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryReadResponse200 | None:
    """Read this thread's memory

     Lists the entities and facts in THIS chat thread's session memory for the repository, optionally
    filtered by a case-insensitive substring q. Only facts current now, unless as_of asks what the
    thread believed at that time. Answers {entities: [...], facts: [{fact_id, subject, predicate,
    object, valid_from}], revision, extraction}: extraction counts what offload_turns did in this
    namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).

    Runs as the registered session named in the execution headers.

    MCP tool: `read_session_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        q (str | Unset): Only entities and facts whose names, types or predicate contain this
            text.
        limit (int | Unset): At most this many entities and facts (default 100).
        as_of (datetime.datetime | Unset): Answer what the thread believed at this time (platform
            clock): the facts current then, including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryReadResponse200
    """

    return sync_detailed(
        repo=repo,
        client=client,
        q=q,
        limit=limit,
        as_of=as_of,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | SessionMemoryReadResponse200]:
    """Read this thread's memory

     Lists the entities and facts in THIS chat thread's session memory for the repository, optionally
    filtered by a case-insensitive substring q. Only facts current now, unless as_of asks what the
    thread believed at that time. Answers {entities: [...], facts: [{fact_id, subject, predicate,
    object, valid_from}], revision, extraction}: extraction counts what offload_turns did in this
    namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).

    Runs as the registered session named in the execution headers.

    MCP tool: `read_session_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        q (str | Unset): Only entities and facts whose names, types or predicate contain this
            text.
        limit (int | Unset): At most this many entities and facts (default 100).
        as_of (datetime.datetime | Unset): Answer what the thread believed at this time (platform
            clock): the facts current then, including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SessionMemoryReadResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        q=q,
        limit=limit,
        as_of=as_of,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    q: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | SessionMemoryReadResponse200 | None:
    """Read this thread's memory

     Lists the entities and facts in THIS chat thread's session memory for the repository, optionally
    filtered by a case-insensitive substring q. Only facts current now, unless as_of asks what the
    thread believed at that time. Answers {entities: [...], facts: [{fact_id, subject, predicate,
    object, valid_from}], revision, extraction}: extraction counts what offload_turns did in this
    namespace (turns, statements found, stored, repeats, superseded, dropped for the budget, shortened).

    Runs as the registered session named in the execution headers.

    MCP tool: `read_session_memory`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        q (str | Unset): Only entities and facts whose names, types or predicate contain this
            text.
        limit (int | Unset): At most this many entities and facts (default 100).
        as_of (datetime.datetime | Unset): Answer what the thread believed at this time (platform
            clock): the facts current then, including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SessionMemoryReadResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            q=q,
            limit=limit,
            as_of=as_of,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
