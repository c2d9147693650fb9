import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.repository_memory_subgraph_response_200 import (
    RepositoryMemorySubgraphResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    repo: str,
    *,
    node_id: str,
    depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["X-Codesynapse-Session"] = x_codesynapse_session

    headers["X-Codesynapse-Parent-Session"] = x_codesynapse_parent_session

    params: dict[str, Any] = {}

    params["node_id"] = node_id

    params["depth"] = depth

    params["limit"] = limit

    json_as_of: str | Unset = UNSET
    if not isinstance(as_of, Unset):
        json_as_of = as_of.isoformat()
    params["as_of"] = json_as_of

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/repos/{repo}/memory/subgraph".format(
            repo=quote(str(repo), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RepositoryMemorySubgraphResponse200 | None:
    if response.status_code == 200:
        response_200 = RepositoryMemorySubgraphResponse200.from_dict(response.json())

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
) -> Response[Error | RepositoryMemorySubgraphResponse200]:
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
    node_id: str,
    depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemorySubgraphResponse200]:
    """Explore the repository graph around a node

     Returns a node of the repository's durable graph and everything within `depth` hops in both
    directions (1-3, default 1), at most `limit` edges (default 100). Answers {nodes: [...], edges:
    [{id, label, src, predicate, dst, origin_session_id}]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `query_subgraph`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        node_id (str): A node id from search_graph_nodes or a fact's subject/object id.
        depth (int | Unset):
        limit (int | Unset):
        as_of (datetime.datetime | Unset): Answer with the durable facts the repository held at
            this time (platform clock), including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemorySubgraphResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        node_id=node_id,
        depth=depth,
        limit=limit,
        as_of=as_of,
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
    node_id: str,
    depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemorySubgraphResponse200 | None:
    """Explore the repository graph around a node

     Returns a node of the repository's durable graph and everything within `depth` hops in both
    directions (1-3, default 1), at most `limit` edges (default 100). Answers {nodes: [...], edges:
    [{id, label, src, predicate, dst, origin_session_id}]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `query_subgraph`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        node_id (str): A node id from search_graph_nodes or a fact's subject/object id.
        depth (int | Unset):
        limit (int | Unset):
        as_of (datetime.datetime | Unset): Answer with the durable facts the repository held at
            this time (platform clock), including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemorySubgraphResponse200
    """

    return sync_detailed(
        repo=repo,
        client=client,
        node_id=node_id,
        depth=depth,
        limit=limit,
        as_of=as_of,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    ).parsed


async def asyncio_detailed(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    node_id: str,
    depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Response[Error | RepositoryMemorySubgraphResponse200]:
    """Explore the repository graph around a node

     Returns a node of the repository's durable graph and everything within `depth` hops in both
    directions (1-3, default 1), at most `limit` edges (default 100). Answers {nodes: [...], edges:
    [{id, label, src, predicate, dst, origin_session_id}]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `query_subgraph`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        node_id (str): A node id from search_graph_nodes or a fact's subject/object id.
        depth (int | Unset):
        limit (int | Unset):
        as_of (datetime.datetime | Unset): Answer with the durable facts the repository held at
            this time (platform clock), including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RepositoryMemorySubgraphResponse200]
    """

    kwargs = _get_kwargs(
        repo=repo,
        node_id=node_id,
        depth=depth,
        limit=limit,
        as_of=as_of,
        x_codesynapse_session=x_codesynapse_session,
        x_codesynapse_parent_session=x_codesynapse_parent_session,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    repo: str,
    *,
    client: AuthenticatedClient | Client,
    node_id: str,
    depth: int | Unset = UNSET,
    limit: int | Unset = UNSET,
    as_of: datetime.datetime | Unset = UNSET,
    x_codesynapse_session: str,
    x_codesynapse_parent_session: str,
) -> Error | RepositoryMemorySubgraphResponse200 | None:
    """Explore the repository graph around a node

     Returns a node of the repository's durable graph and everything within `depth` hops in both
    directions (1-3, default 1), at most `limit` edges (default 100). Answers {nodes: [...], edges:
    [{id, label, src, predicate, dst, origin_session_id}]}.

    Runs as the registered session named in the execution headers.

    MCP tool: `query_subgraph`.

    Needs `read` permission on the repository.

    Args:
        repo (str): The repository: its id, or its name within your organisation.
        node_id (str): A node id from search_graph_nodes or a fact's subject/object id.
        depth (int | Unset):
        limit (int | Unset):
        as_of (datetime.datetime | Unset): Answer with the durable facts the repository held at
            this time (platform clock), including ones since superseded or retracted.
        x_codesynapse_session (str):
        x_codesynapse_parent_session (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RepositoryMemorySubgraphResponse200
    """

    return (
        await asyncio_detailed(
            repo=repo,
            client=client,
            node_id=node_id,
            depth=depth,
            limit=limit,
            as_of=as_of,
            x_codesynapse_session=x_codesynapse_session,
            x_codesynapse_parent_session=x_codesynapse_parent_session,
        )
    ).parsed
