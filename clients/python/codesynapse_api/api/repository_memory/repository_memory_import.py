from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_import_body import RepositoryMemoryImportBody
from ...models.repository_memory_import_response_200 import (
    RepositoryMemoryImportResponse200,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    *,
    body: RepositoryMemoryImportBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/repos/{repo}/memory/import".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemoryImportResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemoryImportResponse200.from_dict(response.json())

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
) -> Response[Error | RepositoryMemoryImportResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryMemoryImportBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryImportResponse200]:
    """Import durable memory into the repository

     Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory
    (write permission), which must hold no memory facts and no history yet (its code graph may be
    there). All or nothing: every line is validated, names and sources are redacted, IDs are derived for
    this repository, and the repository's limits apply. This thread becomes the origin of the imported
    facts; nodes are embedded again. Answers {nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `import_repository_memory`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryImportBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryImportResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryMemoryImportBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryImportResponse200 | None:
    """Import durable memory into the repository

     Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory
    (write permission), which must hold no memory facts and no history yet (its code graph may be
    there). All or nothing: every line is validated, names and sources are redacted, IDs are derived for
    this repository, and the repository's limits apply. This thread becomes the origin of the imported
    facts; nodes are embedded again. Answers {nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `import_repository_memory`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryImportBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryImportResponse200
    """

    return sync_detailed(
        repo=repo,
        client=client,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryMemoryImportBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryImportResponse200]:
    """Import durable memory into the repository

     Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory
    (write permission), which must hold no memory facts and no history yet (its code graph may be
    there). All or nothing: every line is validated, names and sources are redacted, IDs are derived for
    this repository, and the repository's limits apply. This thread becomes the origin of the imported
    facts; nodes are embedded again. Answers {nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `import_repository_memory`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryImportBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryImportResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        body=body,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    body: RepositoryMemoryImportBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryImportResponse200 | None:
    """Import durable memory into the repository

     Imports a JSON Lines export (from export_repository_memory) into the repository's DURABLE memory
    (write permission), which must hold no memory facts and no history yet (its code graph may be
    there). All or nothing: every line is validated, names and sources are redacted, IDs are derived for
    this repository, and the repository's limits apply. This thread becomes the origin of the imported
    facts; nodes are embedded again. Answers {nodes, facts, history}.

    Runs as the registered session named in the execution headers.

    MCP tool: `import_repository_memory`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryImportBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryImportResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            body=body,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
