"""ORM models; importing this package registers every table on `Base.metadata`."""

from app.db.base import Base
from app.db.models.batches import Batch, TeacherCall
from app.db.models.api_keys import ApiKey
from app.db.models.exports import Export
from app.db.models.programs import Execution, Program
from app.db.models.samples import Question, Sample

__all__ = ["Base", "Batch", "TeacherCall", "Program", "Execution", "Sample", "Question", "Export", "ApiKey"]
