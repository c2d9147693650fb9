from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_cancel_job_response_200 import AdminCancelJobResponse200
from ...models.admin_cancel_job_response_202 import AdminCancelJobResponse202
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/admin/jobs/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error | None:
    if response.status_code == 200:
        response_200 = AdminCancelJobResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = AdminCancelJobResponse202.from_dict(response.json())

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
) -> Response[AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error]:
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
) -> Response[AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error]:
    """Cancel any job (operators)

     Cancels any job: a queued one ends canceled at once, a running one is stopped by its worker (202,
    canceled: true). A job that has already ended is left as it is (200, canceled: false). Audited.
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        id (str): The job id ("job_…").

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error | None:
    """Cancel any job (operators)

     Cancels any job: a queued one ends canceled at once, a running one is stopped by its worker (202,
    canceled: true). A job that has already ended is left as it is (200, canceled: false). Audited.
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        id (str): The job id ("job_…").

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error]:
    """Cancel any job (operators)

     Cancels any job: a queued one ends canceled at once, a running one is stopped by its worker (202,
    canceled: true). A job that has already ended is left as it is (200, canceled: false). Audited.
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        id (str): The job id ("job_…").

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error | None:
    """Cancel any job (operators)

     Cancels any job: a queued one ends canceled at once, a running one is stopped by its worker (202,
    canceled: true). A job that has already ended is left as it is (200, canceled: false). Audited.
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        id (str): The job id ("job_…").

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminCancelJobResponse200 | AdminCancelJobResponse202 | Error
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
