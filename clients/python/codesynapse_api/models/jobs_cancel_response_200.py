from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.jobs_cancel_response_200_pool import (
    JobsCancelResponse200Pool,
    check_jobs_cancel_response_200_pool,
)
from ..models.jobs_cancel_response_200_recall_type_0 import (
    JobsCancelResponse200RecallType0,
    check_jobs_cancel_response_200_recall_type_0,
)
from ..models.jobs_cancel_response_200_status import (
    JobsCancelResponse200Status,
    check_jobs_cancel_response_200_status,
)

if TYPE_CHECKING:
    from ..models.jobs_cancel_response_200_follow_ups_item import (
        JobsCancelResponse200FollowUpsItem,
    )
    from ..models.jobs_cancel_response_200_progress_type_0 import (
        JobsCancelResponse200ProgressType0,
    )


T = TypeVar("T", bound="JobsCancelResponse200")


@_attrs_define
class JobsCancelResponse200:
    """
    Attributes:
        id (str):
        kind (str):
        pool (JobsCancelResponse200Pool):
        status (JobsCancelResponse200Status):
        repo_id (None | str):
        params (Any):
        result (Any): The kind's result once succeeded, else null.
        error_code (None | str):
        message (None | str): Why, in words, beside error_code (null while there is no error code): a fixed sentence
            that never quotes a secret, a token, your input or an ID.
        attempts (int):
        max_attempts (int):
        cancel_requested (bool):
        progress (JobsCancelResponse200ProgressType0 | None): Files done of total for ingest, else null.
        created_at (str):
        run_at (str):
        started_at (None | str):
        finished_at (None | str):
        follow_ups (list[JobsCancelResponse200FollowUpsItem]): The jobs this job's run started, oldest first (the newest
            20): an ingest's embedding jobs, each batch's next one. Empty for a job that started none (or has not finished
            yet: follow-ups start as it succeeds).
        recall (JobsCancelResponse200RecallType0 | None): For a succeeded ingest or embedding job: whether its
            repository's recall is complete now (every node embedded for the current model) or partial (embeddings still
            being built, or a follow-up failed: answers rank some code by keywords only). Null for other jobs, and while the
            repository's store cannot be read.
    """

    id: str
    kind: str
    pool: JobsCancelResponse200Pool
    status: JobsCancelResponse200Status
    repo_id: None | str
    params: Any
    result: Any
    error_code: None | str
    message: None | str
    attempts: int
    max_attempts: int
    cancel_requested: bool
    progress: JobsCancelResponse200ProgressType0 | None
    created_at: str
    run_at: str
    started_at: None | str
    finished_at: None | str
    follow_ups: list[JobsCancelResponse200FollowUpsItem]
    recall: JobsCancelResponse200RecallType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.jobs_cancel_response_200_progress_type_0 import (
            JobsCancelResponse200ProgressType0,
        )

        id = self.id

        kind = self.kind

        pool: str = self.pool

        status: str = self.status

        repo_id: None | str
        repo_id = self.repo_id

        params = self.params

        result = self.result

        error_code: None | str
        error_code = self.error_code

        message: None | str
        message = self.message

        attempts = self.attempts

        max_attempts = self.max_attempts

        cancel_requested = self.cancel_requested

        progress: dict[str, Any] | None
        if isinstance(self.progress, JobsCancelResponse200ProgressType0):
            progress = self.progress.to_dict()
        else:
            progress = self.progress

        created_at = self.created_at

        run_at = self.run_at

        started_at: None | str
        started_at = self.started_at

        finished_at: None | str
        finished_at = self.finished_at

        follow_ups = []
        for follow_ups_item_data in self.follow_ups:
            follow_ups_item = follow_ups_item_data.to_dict()
            follow_ups.append(follow_ups_item)

        recall: None | str
        if isinstance(self.recall, str):
            recall = self.recall
        else:
            recall = self.recall

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "pool": pool,
                "status": status,
                "repo_id": repo_id,
                "params": params,
                "result": result,
                "error_code": error_code,
                "message": message,
                "attempts": attempts,
                "max_attempts": max_attempts,
                "cancel_requested": cancel_requested,
                "progress": progress,
                "created_at": created_at,
                "run_at": run_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "follow_ups": follow_ups,
                "recall": recall,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.jobs_cancel_response_200_follow_ups_item import (
            JobsCancelResponse200FollowUpsItem,
        )
        from ..models.jobs_cancel_response_200_progress_type_0 import (
            JobsCancelResponse200ProgressType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        kind = d.pop("kind")

        pool = check_jobs_cancel_response_200_pool(d.pop("pool"))

        status = check_jobs_cancel_response_200_status(d.pop("status"))

        def _parse_repo_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        repo_id = _parse_repo_id(d.pop("repo_id"))

        params = d.pop("params")

        result = d.pop("result")

        def _parse_error_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_code = _parse_error_code(d.pop("error_code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        attempts = d.pop("attempts")

        max_attempts = d.pop("max_attempts")

        cancel_requested = d.pop("cancel_requested")

        def _parse_progress(data: object) -> JobsCancelResponse200ProgressType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                progress_type_0 = JobsCancelResponse200ProgressType0.from_dict(data)

                return progress_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobsCancelResponse200ProgressType0 | None, data)

        progress = _parse_progress(d.pop("progress"))

        created_at = d.pop("created_at")

        run_at = d.pop("run_at")

        def _parse_started_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        follow_ups = []
        _follow_ups = d.pop("follow_ups")
        for follow_ups_item_data in _follow_ups:
            follow_ups_item = JobsCancelResponse200FollowUpsItem.from_dict(
                follow_ups_item_data
            )

            follow_ups.append(follow_ups_item)

        def _parse_recall(data: object) -> JobsCancelResponse200RecallType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                recall_type_0 = check_jobs_cancel_response_200_recall_type_0(data)

                return recall_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobsCancelResponse200RecallType0 | None, data)

        recall = _parse_recall(d.pop("recall"))

        jobs_cancel_response_200 = cls(
            id=id,
            kind=kind,
            pool=pool,
            status=status,
            repo_id=repo_id,
            params=params,
            result=result,
            error_code=error_code,
            message=message,
            attempts=attempts,
            max_attempts=max_attempts,
            cancel_requested=cancel_requested,
            progress=progress,
            created_at=created_at,
            run_at=run_at,
            started_at=started_at,
            finished_at=finished_at,
            follow_ups=follow_ups,
            recall=recall,
        )

        return jobs_cancel_response_200
