from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.session_memory_read_response_200_facts_item_object import (
        SessionMemoryReadResponse200FactsItemObject,
    )
    from ..models.session_memory_read_response_200_facts_item_subject import (
        SessionMemoryReadResponse200FactsItemSubject,
    )


T = TypeVar("T", bound="SessionMemoryReadResponse200FactsItem")


@_attrs_define
class SessionMemoryReadResponse200FactsItem:
    """
    Attributes:
        fact_id (str):
        subject (SessionMemoryReadResponse200FactsItemSubject):
        predicate (str):
        object_ (SessionMemoryReadResponse200FactsItemObject):
        valid_from (None | str):
        source (str | Unset):
        observed_at (str | Unset):
    """

    fact_id: str
    subject: SessionMemoryReadResponse200FactsItemSubject
    predicate: str
    object_: SessionMemoryReadResponse200FactsItemObject
    valid_from: None | str
    source: str | Unset = UNSET
    observed_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fact_id = self.fact_id

        subject = self.subject.to_dict()

        predicate = self.predicate

        object_ = self.object_.to_dict()

        valid_from: None | str
        valid_from = self.valid_from

        source = self.source

        observed_at = self.observed_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fact_id": fact_id,
                "subject": subject,
                "predicate": predicate,
                "object": object_,
                "valid_from": valid_from,
            }
        )
        if source is not UNSET:
            field_dict["source"] = source
        if observed_at is not UNSET:
            field_dict["observed_at"] = observed_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.session_memory_read_response_200_facts_item_object import (
            SessionMemoryReadResponse200FactsItemObject,
        )
        from ..models.session_memory_read_response_200_facts_item_subject import (
            SessionMemoryReadResponse200FactsItemSubject,
        )

        d = dict(src_dict)
        fact_id = d.pop("fact_id")

        subject = SessionMemoryReadResponse200FactsItemSubject.from_dict(
            d.pop("subject")
        )

        predicate = d.pop("predicate")

        object_ = SessionMemoryReadResponse200FactsItemObject.from_dict(d.pop("object"))

        def _parse_valid_from(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        valid_from = _parse_valid_from(d.pop("valid_from"))

        source = d.pop("source", UNSET)

        observed_at = d.pop("observed_at", UNSET)

        session_memory_read_response_200_facts_item = cls(
            fact_id=fact_id,
            subject=subject,
            predicate=predicate,
            object_=object_,
            valid_from=valid_from,
            source=source,
            observed_at=observed_at,
        )

        return session_memory_read_response_200_facts_item
