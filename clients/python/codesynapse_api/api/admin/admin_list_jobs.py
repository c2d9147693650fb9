from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_jobs_response_200 import AdminListJobsResponse200
from ...models.admin_list_jobs_status_type_1 import (
    AdminListJobsStatusType1,
)
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    pool: Literal[""] | str | Unset = UNSET,
    status: AdminListJobsStatusType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    kind: Literal[""] | str | Unset = UNSET,
    error_code: Literal[""] | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_pool: Literal[""] | str | Unset
    if isinstance(pool, Unset):
        json_pool = UNSET
    else:
        json_pool = pool
    params["pool"] = json_pool

    json_status: Literal[""] | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_org: Literal[""] | str | Unset
    if isinstance(org, Unset):
        json_org = UNSET
    else:
        json_org = org
    params["org"] = json_org

    json_kind: Literal[""] | str | Unset
    if isinstance(kind, Unset):
        json_kind = UNSET
    else:
        json_kind = kind
    params["kind"] = json_kind

    json_error_code: Literal[""] | str | Unset
    if isinstance(error_code, Unset):
        json_error_code = UNSET
    else:
        json_error_code = error_code
    params["error_code"] = json_error_code

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/admin/jobs",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AdminListJobsResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = AdminListJobsResponse200.from_dict(response.json())

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
) -> Response[AdminListJobsResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    pool: Literal[""] | str | Unset = UNSET,
    status: AdminListJobsStatusType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    kind: Literal[""] | str | Unset = UNSET,
    error_code: Literal[""] | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[AdminListJobsResponse200 | Error]:
    """List every job (operators)

     Jobs of every organisation by filter, newest first, with organisation, repository and user names
    beside their ids, and the failures grouped by kind and error code (how many, how many can run again,
    when last). Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        pool (Literal[''] | str | Unset): Only jobs of this pool (empty or absent: any).
        status (AdminListJobsStatusType1 | Literal[''] | Unset): Only jobs in this status (empty
            or absent: any).
        org (Literal[''] | str | Unset): Only jobs of this organisation (its id) (empty or absent:
            any).
        kind (Literal[''] | str | Unset): Only jobs of this kind (empty or absent: any).
        error_code (Literal[''] | str | Unset): Only jobs that ended with this error code (empty
            or absent: any).
        limit (int | Unset): At most this many jobs (1-500, default 100). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminListJobsResponse200 | Error]
    """

    kwargs = _get_kwargs(
        pool=pool,
        status=status,
        org=org,
        kind=kind,
        error_code=error_code,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    pool: Literal[""] | str | Unset = UNSET,
    status: AdminListJobsStatusType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    kind: Literal[""] | str | Unset = UNSET,
    error_code: Literal[""] | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> AdminListJobsResponse200 | Error | None:
    """List every job (operators)

     Jobs of every organisation by filter, newest first, with organisation, repository and user names
    beside their ids, and the failures grouped by kind and error code (how many, how many can run again,
    when last). Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        pool (Literal[''] | str | Unset): Only jobs of this pool (empty or absent: any).
        status (AdminListJobsStatusType1 | Literal[''] | Unset): Only jobs in this status (empty
            or absent: any).
        org (Literal[''] | str | Unset): Only jobs of this organisation (its id) (empty or absent:
            any).
        kind (Literal[''] | str | Unset): Only jobs of this kind (empty or absent: any).
        error_code (Literal[''] | str | Unset): Only jobs that ended with this error code (empty
            or absent: any).
        limit (int | Unset): At most this many jobs (1-500, default 100). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminListJobsResponse200 | Error
    """

    return sync_detailed(
        client=client,
        pool=pool,
        status=status,
        org=org,
        kind=kind,
        error_code=error_code,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    pool: Literal[""] | str | Unset = UNSET,
    status: AdminListJobsStatusType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    kind: Literal[""] | str | Unset = UNSET,
    error_code: Literal[""] | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[AdminListJobsResponse200 | Error]:
    """List every job (operators)

     Jobs of every organisation by filter, newest first, with organisation, repository and user names
    beside their ids, and the failures grouped by kind and error code (how many, how many can run again,
    when last). Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        pool (Literal[''] | str | Unset): Only jobs of this pool (empty or absent: any).
        status (AdminListJobsStatusType1 | Literal[''] | Unset): Only jobs in this status (empty
            or absent: any).
        org (Literal[''] | str | Unset): Only jobs of this organisation (its id) (empty or absent:
            any).
        kind (Literal[''] | str | Unset): Only jobs of this kind (empty or absent: any).
        error_code (Literal[''] | str | Unset): Only jobs that ended with this error code (empty
            or absent: any).
        limit (int | Unset): At most this many jobs (1-500, default 100). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AdminListJobsResponse200 | Error]
    """

    kwargs = _get_kwargs(
        pool=pool,
        status=status,
        org=org,
        kind=kind,
        error_code=error_code,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    pool: Literal[""] | str | Unset = UNSET,
    status: AdminListJobsStatusType1 | Literal[""] | Unset = UNSET,
    org: Literal[""] | str | Unset = UNSET,
    kind: Literal[""] | str | Unset = UNSET,
    error_code: Literal[""] | str | Unset = UNSET,
    limit: int | Unset = 100,
) -> AdminListJobsResponse200 | Error | None:
    """List every job (operators)

     Jobs of every organisation by filter, newest first, with organisation, repository and user names
    beside their ids, and the failures grouped by kind and error code (how many, how many can run again,
    when last). Platform admins only.

    Needs a platform admin's API key or browser sign-in; no execution session.

    Args:
        pool (Literal[''] | str | Unset): Only jobs of this pool (empty or absent: any).
        status (AdminListJobsStatusType1 | Literal[''] | Unset): Only jobs in this status (empty
            or absent: any).
        org (Literal[''] | str | Unset): Only jobs of this organisation (its id) (empty or absent:
            any).
        kind (Literal[''] | str | Unset): Only jobs of this kind (empty or absent: any).
        error_code (Literal[''] | str | Unset): Only jobs that ended with this error code (empty
            or absent: any).
        limit (int | Unset): At most this many jobs (1-500, default 100). Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AdminListJobsResponse200 | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            pool=pool,
            status=status,
            org=org,
            kind=kind,
            error_code=error_code,
            limit=limit,
        )
    ).parsed
