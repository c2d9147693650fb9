from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.jobs_cancel_response_200 import JobsCancelResponse200
from ...models.jobs_cancel_response_202 import JobsCancelResponse202
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/jobs/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobsCancelResponse200 | JobsCancelResponse202 | None:
    if response.status_code == 200:
        response_200 = JobsCancelResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = JobsCancelResponse202.from_dict(response.json())

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
) -> Response[Error | JobsCancelResponse200 | JobsCancelResponse202]:
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
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsCancelResponse200 | JobsCancelResponse202]:
    """Cancel a job

     Cancels a job of this chat thread: a queued one ends canceled at once, a running one is asked to
    stop (cancel_requested); answers 202 with the job. A job that has already finished is left as it is:
    200 with the job.

    Runs as the registered session named in the execution headers.

    MCP tool: `cancel_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsCancelResponse200 | JobsCancelResponse202]
    """

    kwargs = _get_kwargs(
        id=id,
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
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsCancelResponse200 | JobsCancelResponse202 | None:
    """Cancel a job

     Cancels a job of this chat thread: a queued one ends canceled at once, a running one is asked to
    stop (cancel_requested); answers 202 with the job. A job that has already finished is left as it is:
    200 with the job.

    Runs as the registered session named in the execution headers.

    MCP tool: `cancel_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsCancelResponse200 | JobsCancelResponse202
    """

    return sync_detailed(
        id=id,
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | JobsCancelResponse200 | JobsCancelResponse202]:
    """Cancel a job

     Cancels a job of this chat thread: a queued one ends canceled at once, a running one is asked to
    stop (cancel_requested); answers 202 with the job. A job that has already finished is left as it is:
    200 with the job.

    Runs as the registered session named in the execution headers.

    MCP tool: `cancel_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobsCancelResponse200 | JobsCancelResponse202]
    """

    kwargs = _get_kwargs(
        id=id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | JobsCancelResponse200 | JobsCancelResponse202 | None:
    """Cancel a job

     Cancels a job of this chat thread: a queued one ends canceled at once, a running one is asked to
    stop (cancel_requested); answers 202 with the job. A job that has already finished is left as it is:
    200 with the job.

    Runs as the registered session named in the execution headers.

    MCP tool: `cancel_job`.

    Args:
        id (str): The job id returned at submission ("job_…").
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobsCancelResponse200 | JobsCancelResponse202
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
