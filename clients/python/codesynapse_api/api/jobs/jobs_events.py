from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.jobs_events_response_200_type_0 import JobsEventsResponse200Type0
from ...models.jobs_events_response_200_type_1 import JobsEventsResponse200Type1
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    last_event_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-Id"] = last_event_id

    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{id}/events".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1 | None:
    if response.status_code == 200:

        def _parse_response_200(
            data: object,
        ) -> JobsEventsResponse200Type0 | JobsEventsResponse200Type1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = JobsEventsResponse200Type0.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = JobsEventsResponse200Type1.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.text)

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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
) -> Response[Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1]:
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
    last_event_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1]:
    """Job status events

     A Server-Sent Events stream of one job of this chat thread: its current status first (`event:
    status`, data = the job as GET /api/v1/jobs/{id} answers it), then each change, and `event: end`
    after a terminal status. A reconnect (Last-Event-ID set) to a job that has already ended gets 204,
    which tells EventSource to stop. A stream lives a bounded time; the client reconnects.

    Runs as the registered session named in the execution headers.

    Args:
        id (str): The job id returned at submission ("job_…").
        last_event_id (str | Unset): Sent by EventSource on a reconnect.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1]
    """

    kwargs = _get_kwargs(
        id=id,
        last_event_id=last_event_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1 | None:
    """Job status events

     A Server-Sent Events stream of one job of this chat thread: its current status first (`event:
    status`, data = the job as GET /api/v1/jobs/{id} answers it), then each change, and `event: end`
    after a terminal status. A reconnect (Last-Event-ID set) to a job that has already ended gets 204,
    which tells EventSource to stop. A stream lives a bounded time; the client reconnects.

    Runs as the registered session named in the execution headers.

    Args:
        id (str): The job id returned at submission ("job_…").
        last_event_id (str | Unset): Sent by EventSource on a reconnect.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1
    """

    return sync_detailed(
        id=id,
        client=client,
        last_event_id=last_event_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1]:
    """Job status events

     A Server-Sent Events stream of one job of this chat thread: its current status first (`event:
    status`, data = the job as GET /api/v1/jobs/{id} answers it), then each change, and `event: end`
    after a terminal status. A reconnect (Last-Event-ID set) to a job that has already ended gets 204,
    which tells EventSource to stop. A stream lives a bounded time; the client reconnects.

    Runs as the registered session named in the execution headers.

    Args:
        id (str): The job id returned at submission ("job_…").
        last_event_id (str | Unset): Sent by EventSource on a reconnect.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1]
    """

    kwargs = _get_kwargs(
        id=id,
        last_event_id=last_event_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: str | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1 | None:
    """Job status events

     A Server-Sent Events stream of one job of this chat thread: its current status first (`event:
    status`, data = the job as GET /api/v1/jobs/{id} answers it), then each change, and `event: end`
    after a terminal status. A reconnect (Last-Event-ID set) to a job that has already ended gets 204,
    which tells EventSource to stop. A stream lives a bounded time; the client reconnects.

    Runs as the registered session named in the execution headers.

    Args:
        id (str): The job id returned at submission ("job_…").
        last_event_id (str | Unset): Sent by EventSource on a reconnect.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | JobsEventsResponse200Type0 | JobsEventsResponse200Type1
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            last_event_id=last_event_id,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
