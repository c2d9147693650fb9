from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.jobs_submit_ai_task_body_task import (
    JobsSubmitAiTaskBodyTask,
    check_jobs_submit_ai_task_body_task,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="JobsSubmitAiTaskBody")


@_attrs_define
class JobsSubmitAiTaskBody:
    """
    Attributes:
        task (JobsSubmitAiTaskBodyTask): "question" (with question) or "summary".
        question (str | Unset): The question, for a question task.
    """

    task: JobsSubmitAiTaskBodyTask
    question: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        task: str = self.task

        question = self.question

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "task": task,
            }
        )
        if question is not UNSET:
            field_dict["question"] = question

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        task = check_jobs_submit_ai_task_body_task(d.pop("task"))

        question = d.pop("question", UNSET)

        jobs_submit_ai_task_body = cls(
            task=task,
            question=question,
        )

        return jobs_submit_ai_task_body
