from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.session_memory_erasure_response_200_stores_item import (
        SessionMemoryErasureResponse200StoresItem,
    )


T = TypeVar("T", bound="SessionMemoryErasureResponse200")


@_attrs_define
class SessionMemoryErasureResponse200:
    """
    Attributes:
        scope (Literal['namespace']):
        session_id (str):
        repo_id (str):
        stores (list[SessionMemoryErasureResponse200StoresItem]):
        clears (int): Clears recorded (a repeated clear adds its counts).
        done (bool):
        cleared_at (str):
        updated_at (str):
    """

    scope: Literal["namespace"]
    session_id: str
    repo_id: str
    stores: list[SessionMemoryErasureResponse200StoresItem]
    clears: int
    done: bool
    cleared_at: str
    updated_at: str

    def to_dict(self) -> dict[str, Any]:
        scope = self.scope

        session_id = self.session_id

        repo_id = self.repo_id

        stores = []
        for stores_item_data in self.stores:
            stores_item = stores_item_data.to_dict()
            stores.append(stores_item)

        clears = self.clears

        done = self.done

        cleared_at = self.cleared_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scope": scope,
                "session_id": session_id,
                "repo_id": repo_id,
                "stores": stores,
                "clears": clears,
                "done": done,
                "cleared_at": cleared_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_erasure_response_200_stores_item import (
            SessionMemoryErasureResponse200StoresItem,
        )

        d = dict(src_dict)
        scope = cast(Literal["namespace"], d.pop("scope"))
        if scope != "namespace":
            raise ValueError(f"scope must match const 'namespace', got '{scope}'")

        session_id = d.pop("session_id")

        repo_id = d.pop("repo_id")

        stores = []
        _stores = d.pop("stores")
        for stores_item_data in _stores:
            stores_item = SessionMemoryErasureResponse200StoresItem.from_dict(
                stores_item_data
            )

            stores.append(stores_item)

        clears = d.pop("clears")

        done = d.pop("done")

        cleared_at = d.pop("cleared_at")

        updated_at = d.pop("updated_at")

        session_memory_erasure_response_200 = cls(
            scope=scope,
            session_id=session_id,
            repo_id=repo_id,
            stores=stores,
            clears=clears,
            done=done,
            cleared_at=cleared_at,
            updated_at=updated_at,
        )

        return session_memory_erasure_response_200
