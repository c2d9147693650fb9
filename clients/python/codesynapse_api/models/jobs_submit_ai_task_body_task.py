from typing import Literal

JobsSubmitAiTaskBodyTask = Literal["question", "summary"]

JOBS_SUBMIT_AI_TASK_BODY_TASK_VALUES: set[JobsSubmitAiTaskBodyTask] = {
    "question",
    "summary",
}


def check_jobs_submit_ai_task_body_task(value: str) -> JobsSubmitAiTaskBodyTask:
    if value in JOBS_SUBMIT_AI_TASK_BODY_TASK_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {JOBS_SUBMIT_AI_TASK_BODY_TASK_VALUES!r}"
    )
