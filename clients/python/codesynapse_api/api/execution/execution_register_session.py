from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.execution_register_session_body import ExecutionRegisterSessionBody
from ...models.execution_register_session_response_200 import (
    ExecutionRegisterSessionResponse200,
)
from ...models.execution_register_session_response_201 import (
    ExecutionRegisterSessionResponse201,
)
from ...types import Response


def _get_kwargs(
    *,
    body: ExecutionRegisterSessionBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/execution/sessions",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Error
    | ExecutionRegisterSessionResponse200
    | ExecutionRegisterSessionResponse201
    | None
):
    if response.status_code == 200:
        response_200 = ExecutionRegisterSessionResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = ExecutionRegisterSessionResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

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
) -> Response[
    Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ExecutionRegisterSessionBody,
) -> Response[
    Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201
]:
    """Register a chat thread's session

     Binds a primary session ID (the runtime's own chat-thread ID) to the caller's organisation and user
    for 7 days: 201 the first time, 200 with the same binding and expiry after that (idempotent, so a
    restarted runtime calls it again). An ID another caller holds is session_claimed; a revoked or
    expired one is session_revoked / session_expired, for good. Every execution call then names it in
    both X-CodeSynapse-Session and X-CodeSynapse-Parent-Session. Answers the execution identity.

    Needs an API key or a browser sign-in; no execution session.

    Args:
        body (ExecutionRegisterSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ExecutionRegisterSessionBody,
) -> (
    Error
    | ExecutionRegisterSessionResponse200
    | ExecutionRegisterSessionResponse201
    | None
):
    """Register a chat thread's session

     Binds a primary session ID (the runtime's own chat-thread ID) to the caller's organisation and user
    for 7 days: 201 the first time, 200 with the same binding and expiry after that (idempotent, so a
    restarted runtime calls it again). An ID another caller holds is session_claimed; a revoked or
    expired one is session_revoked / session_expired, for good. Every execution call then names it in
    both X-CodeSynapse-Session and X-CodeSynapse-Parent-Session. Answers the execution identity.

    Needs an API key or a browser sign-in; no execution session.

    Args:
        body (ExecutionRegisterSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ExecutionRegisterSessionBody,
) -> Response[
    Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201
]:
    """Register a chat thread's session

     Binds a primary session ID (the runtime's own chat-thread ID) to the caller's organisation and user
    for 7 days: 201 the first time, 200 with the same binding and expiry after that (idempotent, so a
    restarted runtime calls it again). An ID another caller holds is session_claimed; a revoked or
    expired one is session_revoked / session_expired, for good. Every execution call then names it in
    both X-CodeSynapse-Session and X-CodeSynapse-Parent-Session. Answers the execution identity.

    Needs an API key or a browser sign-in; no execution session.

    Args:
        body (ExecutionRegisterSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ExecutionRegisterSessionBody,
) -> (
    Error
    | ExecutionRegisterSessionResponse200
    | ExecutionRegisterSessionResponse201
    | None
):
    """Register a chat thread's session

     Binds a primary session ID (the runtime's own chat-thread ID) to the caller's organisation and user
    for 7 days: 201 the first time, 200 with the same binding and expiry after that (idempotent, so a
    restarted runtime calls it again). An ID another caller holds is session_claimed; a revoked or
    expired one is session_revoked / session_expired, for good. Every execution call then names it in
    both X-CodeSynapse-Session and X-CodeSynapse-Parent-Session. Answers the execution identity.

    Needs an API key or a browser sign-in; no execution session.

    Args:
        body (ExecutionRegisterSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ExecutionRegisterSessionResponse200 | ExecutionRegisterSessionResponse201
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
