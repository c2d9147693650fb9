from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.repository_memory_upsert_body_triples_item import (
        RepositoryMemoryUpsertBodyTriplesItem,
    )


T = TypeVar("T", bound="RepositoryMemoryUpsertBody")


@_attrs_define
class RepositoryMemoryUpsertBody:
    """
    Attributes:
        triples (list[RepositoryMemoryUpsertBodyTriplesItem]): Triples like {"subject": "AuthService", "predicate":
            "depends_on", "object": "TokenStore", "subject_type": "class", "object_type": "class"}. Predicates match
            ^[a-z][a-z0-9_]{0,63}$; names are 1-256 characters; types are optional.
        source (str | Unset): Where the facts come from (a file, a turn); stored redacted.
        supersedes (list[str] | Unset): Up to 64 live durable fact_id values these triples replace. All or nothing: an
            ID that is not a live fact of this repository refuses the call (404).
        single_valued (list[str] | Unset): Predicates to declare single-valued in this repository's durable memory, for
            good (at most 32): one live object per subject.
        observed_at (datetime.datetime | Unset): When the writer observed these facts, if it knows better than the time
            of this call (not in the future).
    """

    triples: list[RepositoryMemoryUpsertBodyTriplesItem]
    source: str | Unset = UNSET
    supersedes: list[str] | Unset = UNSET
    single_valued: list[str] | Unset = UNSET
    observed_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        triples = []
        for triples_item_data in self.triples:
            triples_item = triples_item_data.to_dict()
            triples.append(triples_item)

        source = self.source

        supersedes: list[str] | Unset = UNSET
        if not isinstance(self.supersedes, Unset):
            supersedes = self.supersedes

        single_valued: list[str] | Unset = UNSET
        if not isinstance(self.single_valued, Unset):
            single_valued = self.single_valued

        observed_at: str | Unset = UNSET
        if not isinstance(self.observed_at, Unset):
            observed_at = self.observed_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "triples": triples,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if supersedes is not UNSET:
            field_dict["supersedes"] = supersedes
        if single_valued is not UNSET:
            field_dict["single_valued"] = single_valued
        if observed_at is not UNSET:
            field_dict["observed_at"] = observed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.repository_memory_upsert_body_triples_item import (
            RepositoryMemoryUpsertBodyTriplesItem,
        )

        d = dict(src_dict)
        triples = []
        _triples = d.pop("triples")
        for triples_item_data in _triples:
            triples_item = RepositoryMemoryUpsertBodyTriplesItem.from_dict(
                triples_item_data
            )

            triples.append(triples_item)

        source = d.pop("source", UNSET)

        supersedes = cast(list[str], d.pop("supersedes", UNSET))

        single_valued = cast(list[str], d.pop("single_valued", UNSET))

        _observed_at = d.pop("observed_at", UNSET)
        observed_at: datetime.datetime | Unset
        if isinstance(_observed_at, Unset):
            observed_at = UNSET
        else:
            observed_at = datetime.datetime.fromisoformat(_observed_at)

        repository_memory_upsert_body = cls(
            triples=triples,
            source=source,
            supersedes=supersedes,
            single_valued=single_valued,
            observed_at=observed_at,
        )

        return repository_memory_upsert_body
