"""/v1/teachers: the teachers a batch may name (names, kinds, models; never api keys)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from app.api.deps import settings_dep
from app.core.config import Settings
from app.teachers.schemas import TeacherList
from app.teachers.service import list_teachers

router = APIRouter(prefix="/teachers", tags=["teachers"])


@router.get("", response_model=TeacherList, summary="Configured teachers and the default one")
async def teachers(settings: Settings = Depends(settings_dep)) -> TeacherList:
    return list_teachers(settings.teachers, settings.default_teacher)
