from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.execution_identity_response_200 import ExecutionIdentityResponse200
from ...types import Response


def _get_kwargs(
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/execution/identity",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ExecutionIdentityResponse200 | None:
    if response.status_code == 200:
        response_200 = ExecutionIdentityResponse200.from_dict(response.json())

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
) -> Response[Error | ExecutionIdentityResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | ExecutionIdentityResponse200]:
    """Who am I

     Returns the execution identity every tool call on this connection runs as: tenant (organisation),
    subject (user), the registered primary session ID of this chat thread, its parent (always equal) and
    the binding's fixed expiry. Call it first to check the wiring; it takes no arguments.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_identity`.

    Args:
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionIdentityResponse200]
    """

    kwargs = _get_kwargs(
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
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | ExecutionIdentityResponse200 | None:
    """Who am I

     Returns the execution identity every tool call on this connection runs as: tenant (organisation),
    subject (user), the registered primary session ID of this chat thread, its parent (always equal) and
    the binding's fixed expiry. Call it first to check the wiring; it takes no arguments.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_identity`.

    Args:
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionIdentityResponse200
    """

    return sync_detailed(
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | ExecutionIdentityResponse200]:
    """Who am I

     Returns the execution identity every tool call on this connection runs as: tenant (organisation),
    subject (user), the registered primary session ID of this chat thread, its parent (always equal) and
    the binding's fixed expiry. Call it first to check the wiring; it takes no arguments.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_identity`.

    Args:
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionIdentityResponse200]
    """

    kwargs = _get_kwargs(
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | ExecutionIdentityResponse200 | None:
    """Who am I

     Returns the execution identity every tool call on this connection runs as: tenant (organisation),
    subject (user), the registered primary session ID of this chat thread, its parent (always equal) and
    the binding's fixed expiry. Call it first to check the wiring; it takes no arguments.

    Runs as the registered session named in the execution headers.

    MCP tool: `get_identity`.

    Args:
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionIdentityResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
