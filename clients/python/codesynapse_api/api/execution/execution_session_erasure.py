from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.execution_session_erasure_response_200 import (
    ExecutionSessionErasureResponse200,
)
from ...types import Response


def _get_kwargs(
    session_id: str,
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/execution/sessions/{session_id}/erasure".format(
            session_id=quote(str(session_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ExecutionSessionErasureResponse200 | None:
    if response.status_code == 200:
        response_200 = ExecutionSessionErasureResponse200.from_dict(response.json())

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
) -> Response[Error | ExecutionSessionErasureResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | ExecutionSessionErasureResponse200]:
    """Erasure receipt of an ended session

     After a session is revoked (DELETE /api/v1/execution/sessions/{id}) or expires, its data is erased
    by a first pass at once and by the cleanup sweep's retries every minute until every store is done.
    This answers what each store removed so far and whether it is done: {session_id, cause, ended_at,
    stores: [{store, removed, status}], passes, done, updated_at}. Call it from another live session of
    the same user (or as an owner/admin of the organisation); a session that is still live is 404
    not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_session_erasure`.

    Args:
        session_id (str): The ended session's ID.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionSessionErasureResponse200]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | ExecutionSessionErasureResponse200 | None:
    """Erasure receipt of an ended session

     After a session is revoked (DELETE /api/v1/execution/sessions/{id}) or expires, its data is erased
    by a first pass at once and by the cleanup sweep's retries every minute until every store is done.
    This answers what each store removed so far and whether it is done: {session_id, cause, ended_at,
    stores: [{store, removed, status}], passes, done, updated_at}. Call it from another live session of
    the same user (or as an owner/admin of the organisation); a session that is still live is 404
    not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_session_erasure`.

    Args:
        session_id (str): The ended session's ID.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionSessionErasureResponse200
    """

    return sync_detailed(
        session_id=session_id,
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | ExecutionSessionErasureResponse200]:
    """Erasure receipt of an ended session

     After a session is revoked (DELETE /api/v1/execution/sessions/{id}) or expires, its data is erased
    by a first pass at once and by the cleanup sweep's retries every minute until every store is done.
    This answers what each store removed so far and whether it is done: {session_id, cause, ended_at,
    stores: [{store, removed, status}], passes, done, updated_at}. Call it from another live session of
    the same user (or as an owner/admin of the organisation); a session that is still live is 404
    not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_session_erasure`.

    Args:
        session_id (str): The ended session's ID.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionSessionErasureResponse200]
    """

    kwargs = _get_kwargs(
        session_id=session_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    session_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | ExecutionSessionErasureResponse200 | None:
    """Erasure receipt of an ended session

     After a session is revoked (DELETE /api/v1/execution/sessions/{id}) or expires, its data is erased
    by a first pass at once and by the cleanup sweep's retries every minute until every store is done.
    This answers what each store removed so far and whether it is done: {session_id, cause, ended_at,
    stores: [{store, removed, status}], passes, done, updated_at}. Call it from another live session of
    the same user (or as an owner/admin of the organisation); a session that is still live is 404
    not_found.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_session_erasure`.

    Args:
        session_id (str): The ended session's ID.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionSessionErasureResponse200
    """

    return (
        await asyncio_detailed(
            session_id=session_id,
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
