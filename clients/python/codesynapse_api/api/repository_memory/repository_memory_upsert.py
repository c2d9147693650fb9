from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_upsert_body import RepositoryMemoryUpsertBody
from ...models.repository_memory_upsert_response_200 import (
    RepositoryMemoryUpsertResponse200,
)
from ...types import Response


def _get_kwargs(
    repo: str,
    *,
    body: RepositoryMemoryUpsertBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/repos/{repo}/memory/triples".format(
            repo=quote(str(repo), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemoryUpsertResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemoryUpsertResponse200.from_dict(response.json())

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
) -> Response[Error | RepositoryMemoryUpsertResponse200]:
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
    body: RepositoryMemoryUpsertBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryUpsertResponse200]:
    """Write durable repository facts

     Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the
    repository; each new record notes this thread as origin_session_id. Needs write permission. For
    thread-private notes use upsert_session_facts. To correct a durable fact, name it in supersedes, or
    declare the predicate single_valued for the repository (then a new object for the same subject
    replaces the old fact, in this and later writes); replaced facts leave recall and reads and stay in
    their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate,
    object_id}], superseded: [fact_id]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `upsert_graph_triples`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryUpsertBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryUpsertResponse200]
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
    body: RepositoryMemoryUpsertBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryUpsertResponse200 | None:
    """Write durable repository facts

     Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the
    repository; each new record notes this thread as origin_session_id. Needs write permission. For
    thread-private notes use upsert_session_facts. To correct a durable fact, name it in supersedes, or
    declare the predicate single_valued for the repository (then a new object for the same subject
    replaces the old fact, in this and later writes); replaced facts leave recall and reads and stay in
    their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate,
    object_id}], superseded: [fact_id]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `upsert_graph_triples`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryUpsertBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryUpsertResponse200
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
    body: RepositoryMemoryUpsertBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemoryUpsertResponse200]:
    """Write durable repository facts

     Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the
    repository; each new record notes this thread as origin_session_id. Needs write permission. For
    thread-private notes use upsert_session_facts. To correct a durable fact, name it in supersedes, or
    declare the predicate single_valued for the repository (then a new object for the same subject
    replaces the old fact, in this and later writes); replaced facts leave recall and reads and stay in
    their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate,
    object_id}], superseded: [fact_id]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `upsert_graph_triples`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryUpsertBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemoryUpsertResponse200]
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
    body: RepositoryMemoryUpsertBody,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemoryUpsertResponse200 | None:
    """Write durable repository facts

     Stores triples in the repository's DURABLE memory graph, shared with everyone who can read the
    repository; each new record notes this thread as origin_session_id. Needs write permission. For
    thread-private notes use upsert_session_facts. To correct a durable fact, name it in supersedes, or
    declare the predicate single_valued for the repository (then a new object for the same subject
    replaces the old fact, in this and later writes); replaced facts leave recall and reads and stay in
    their history (repository_fact_history). Answers {facts: [{fact_id, subject_id, predicate,
    object_id}], superseded: [fact_id]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `upsert_graph_triples`.

    Needs `write` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):
        body (RepositoryMemoryUpsertBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemoryUpsertResponse200
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
