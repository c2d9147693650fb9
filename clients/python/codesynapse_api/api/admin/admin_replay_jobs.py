from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_replay_jobs_body import AdminReplayJobsBody
from ...models.admin_replay_jobs_response_202 import AdminReplayJobsResponse202
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: AdminReplayJobsBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/admin/jobs/replay",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminReplayJobsResponse202 | Error | None:
    if response.status_code == 202:
        response_202 = AdminReplayJobsResponse202.from_dict(response.json())

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
) -> Response[AdminReplayJobsResponse202 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AdminReplayJobsBody | Unset = UNSET,
) -> Response[AdminReplayJobsResponse202 | Error]:
    """Replay the failed jobs a filter selects (operators)

     Every requeueable job the filter selects (failed or refused, not a fix job) runs again, at most 500
    per call (202: their ids, and `more` when more matched). The filter needs at least one of kind,
    error_code, pool or org. Audited per organisation. Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        body (AdminReplayJobsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminReplayJobsResponse202 | Error]
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
    body: AdminReplayJobsBody | Unset = UNSET,
) -> AdminReplayJobsResponse202 | Error | None:
    """Replay the failed jobs a filter selects (operators)

     Every requeueable job the filter selects (failed or refused, not a fix job) runs again, at most 500
    per call (202: their ids, and `more` when more matched). The filter needs at least one of kind,
    error_code, pool or org. Audited per organisation. Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        body (AdminReplayJobsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminReplayJobsResponse202 | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AdminReplayJobsBody | Unset = UNSET,
) -> Response[AdminReplayJobsResponse202 | Error]:
    """Replay the failed jobs a filter selects (operators)

     Every requeueable job the filter selects (failed or refused, not a fix job) runs again, at most 500
    per call (202: their ids, and `more` when more matched). The filter needs at least one of kind,
    error_code, pool or org. Audited per organisation. Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        body (AdminReplayJobsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminReplayJobsResponse202 | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: AdminReplayJobsBody | Unset = UNSET,
) -> AdminReplayJobsResponse202 | Error | None:
    """Replay the failed jobs a filter selects (operators)

     Every requeueable job the filter selects (failed or refused, not a fix job) runs again, at most 500
    per call (202: their ids, and `more` when more matched). The filter needs at least one of kind,
    error_code, pool or org. Audited per organisation. Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        body (AdminReplayJobsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminReplayJobsResponse202 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
