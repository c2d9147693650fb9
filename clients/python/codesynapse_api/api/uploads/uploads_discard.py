from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    repo: str,
    upload_id: str,
    *,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/repos/{repo}/uploads/{upload_id}".format(
            repo=quote(str(repo), safe=""),
            upload_id=quote(str(upload_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | None:
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
) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    repo: str,
    upload_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Any | Error]:
    """Discard an upload

     Discards one of this session's snapshot uploads before it is ingested.

    Runs as the registered session named in the execution headers.

    MCP tool: `discard_upload`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        upload_id (str): The upload's id.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        repo=repo,
        upload_id=upload_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    repo: str,
    upload_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Any | Error | None:
    """Discard an upload

     Discards one of this session's snapshot uploads before it is ingested.

    Runs as the registered session named in the execution headers.

    MCP tool: `discard_upload`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        upload_id (str): The upload's id.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        repo=repo,
        upload_id=upload_id,
        client=client,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    upload_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Any | Error]:
    """Discard an upload

     Discards one of this session's snapshot uploads before it is ingested.

    Runs as the registered session named in the execution headers.

    MCP tool: `discard_upload`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        upload_id (str): The upload's id.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        repo=repo,
        upload_id=upload_id,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    upload_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Any | Error | None:
    """Discard an upload

     Discards one of this session's snapshot uploads before it is ingested.

    Runs as the registered session named in the execution headers.

    MCP tool: `discard_upload`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        upload_id (str): The upload's id.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return (
        await asyncio_detailed(
            repo=repo,
            upload_id=upload_id,
            client=client,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
