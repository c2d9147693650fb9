from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_job_charts_response_200 import AdminJobChartsResponse200
from ...models.admin_job_charts_system_type_1 import (
    AdminJobChartsSystemType1,
)
from ...models.admin_job_charts_window_type_1 import (
    AdminJobChartsWindowType1,
)
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    window: AdminJobChartsWindowType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    system: AdminJobChartsSystemType1 | Literal[""] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_window: Literal[""] | str | Unset
    if isinstance(window, Unset):
        json_window = UNSET
    elif isinstance(window, str):
        json_window = window
    else:
        json_window = window
    params["window"] = json_window

    json_org: Literal[""] | str | Unset
    if isinstance(org, Unset):
        json_org = UNSET
    else:
        json_org = org
    params["org"] = json_org

    json_system: Literal[""] | str | Unset
    if isinstance(system, Unset):
        json_system = UNSET
    elif isinstance(system, str):
        json_system = system
    else:
        json_system = system
    params["system"] = json_system

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/admin/charts",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminJobChartsResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = AdminJobChartsResponse200.from_dict(response.json())

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
) -> Response[AdminJobChartsResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    window: AdminJobChartsWindowType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    system: AdminJobChartsSystemType1 | Literal[""] | Unset = UNSET,
) -> Response[AdminJobChartsResponse200 | Error]:
    """Job charts over time (operators)

     Per pool, over the last hour or day: jobs ended and failed per bucket, wait and run p50/p95 in
    seconds, and the queue depth at each bucket's end; `buckets` are each bucket's start (Unix seconds).
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        window (AdminJobChartsWindowType1 | Literal[''] | Unset): 1h (1-minute buckets, the
            default) or 24h (15-minute buckets).
        org (Literal[''] | str | Unset): Only this organisation's jobs (its id).
        system (AdminJobChartsSystemType1 | Literal[''] | Unset): 1: count the system sweeps too.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminJobChartsResponse200 | Error]
    """

    kwargs = _get_kwargs(
        window=window,
        org=org,
        system=system,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    window: AdminJobChartsWindowType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    system: AdminJobChartsSystemType1 | Literal[""] | Unset = UNSET,
) -> AdminJobChartsResponse200 | Error | None:
    """Job charts over time (operators)

     Per pool, over the last hour or day: jobs ended and failed per bucket, wait and run p50/p95 in
    seconds, and the queue depth at each bucket's end; `buckets` are each bucket's start (Unix seconds).
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        window (AdminJobChartsWindowType1 | Literal[''] | Unset): 1h (1-minute buckets, the
            default) or 24h (15-minute buckets).
        org (Literal[''] | str | Unset): Only this organisation's jobs (its id).
        system (AdminJobChartsSystemType1 | Literal[''] | Unset): 1: count the system sweeps too.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminJobChartsResponse200 | Error
    """

    return sync_detailed(
        client=client,
        window=window,
        org=org,
        system=system,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    window: AdminJobChartsWindowType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    system: AdminJobChartsSystemType1 | Literal[""] | Unset = UNSET,
) -> Response[AdminJobChartsResponse200 | Error]:
    """Job charts over time (operators)

     Per pool, over the last hour or day: jobs ended and failed per bucket, wait and run p50/p95 in
    seconds, and the queue depth at each bucket's end; `buckets` are each bucket's start (Unix seconds).
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        window (AdminJobChartsWindowType1 | Literal[''] | Unset): 1h (1-minute buckets, the
            default) or 24h (15-minute buckets).
        org (Literal[''] | str | Unset): Only this organisation's jobs (its id).
        system (AdminJobChartsSystemType1 | Literal[''] | Unset): 1: count the system sweeps too.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminJobChartsResponse200 | Error]
    """

    kwargs = _get_kwargs(
        window=window,
        org=org,
        system=system,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    window: AdminJobChartsWindowType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    system: AdminJobChartsSystemType1 | Literal[""] | Unset = UNSET,
) -> AdminJobChartsResponse200 | Error | None:
    """Job charts over time (operators)

     Per pool, over the last hour or day: jobs ended and failed per bucket, wait and run p50/p95 in
    seconds, and the queue depth at each bucket's end; `buckets` are each bucket's start (Unix seconds).
    Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        window (AdminJobChartsWindowType1 | Literal[''] | Unset): 1h (1-minute buckets, the
            default) or 24h (15-minute buckets).
        org (Literal[''] | str | Unset): Only this organisation's jobs (its id).
        system (AdminJobChartsSystemType1 | Literal[''] | Unset): 1: count the system sweeps too.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminJobChartsResponse200 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            window=window,
            org=org,
            system=system,
        )
    ).parsed
