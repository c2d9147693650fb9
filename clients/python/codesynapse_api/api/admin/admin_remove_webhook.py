from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_remove_webhook_body import AdminRemoveWebhookBody
from ...models.admin_remove_webhook_response_200 import AdminRemoveWebhookResponse200
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    *,
    body: AdminRemoveWebhookBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/admin/commands/remove-webhook",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminRemoveWebhookResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = AdminRemoveWebhookResponse200.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[AdminRemoveWebhookResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: AdminRemoveWebhookBody,
) -> Response[AdminRemoveWebhookResponse200 | Error]:
    """Remove an organisation's completion webhook

     Removes the organisation's webhook; deliveries not yet sent then fail as webhook_removed.
    `codesynapse admin remove-webhook`.

    Needs the server's local admin token (the local CLI) or a platform admin's API key or browser sign-
    in; no execution session.

    Args:
        body (AdminRemoveWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRemoveWebhookResponse200 | Error]
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
    client: AuthenticatedClient,
    body: AdminRemoveWebhookBody,
) -> AdminRemoveWebhookResponse200 | Error | None:
    """Remove an organisation's completion webhook

     Removes the organisation's webhook; deliveries not yet sent then fail as webhook_removed.
    `codesynapse admin remove-webhook`.

    Needs the server's local admin token (the local CLI) or a platform admin's API key or browser sign-
    in; no execution session.

    Args:
        body (AdminRemoveWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRemoveWebhookResponse200 | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: AdminRemoveWebhookBody,
) -> Response[AdminRemoveWebhookResponse200 | Error]:
    """Remove an organisation's completion webhook

     Removes the organisation's webhook; deliveries not yet sent then fail as webhook_removed.
    `codesynapse admin remove-webhook`.

    Needs the server's local admin token (the local CLI) or a platform admin's API key or browser sign-
    in; no execution session.

    Args:
        body (AdminRemoveWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminRemoveWebhookResponse200 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: AdminRemoveWebhookBody,
) -> AdminRemoveWebhookResponse200 | Error | None:
    """Remove an organisation's completion webhook

     Removes the organisation's webhook; deliveries not yet sent then fail as webhook_removed.
    `codesynapse admin remove-webhook`.

    Needs the server's local admin token (the local CLI) or a platform admin's API key or browser sign-
    in; no execution session.

    Args:
        body (AdminRemoveWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminRemoveWebhookResponse200 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
