"""Flask extensions, created unbound here and initialised by ``create_app``."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeAlias

from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_sqlalchemy.session import Session as FlaskSession
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData, Table
from sqlalchemy.orm import DeclarativeBase, Session, scoped_session

# Deterministic constraint names, so Alembic can find (and SQLite batch
# migrations can recreate) every index and constraint by name. Names must be
# unique in the whole schema (PostgreSQL names a unique constraint's index after
# it), hence every column of a unique constraint in its name.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base class of every model (``db.Model``)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)

    if TYPE_CHECKING:
        # Every model maps a table (none a join or a select), so its __table__ is a Table
        # (SQLAlchemy declares the wider FromClause): the services delete and update by it.
        __table__: ClassVar[Table]


db = SQLAlchemy(model_class=Base)

# The models' base class. At run time Flask-SQLAlchemy's db.Model: Base's body (its
# metadata and registry) with the extension's mixins (table names, binds). A type checker
# cannot take a class from an attribute of an instance as a base (python/mypy#8603), so to
# it the models derive from Base, which declares every attribute they use.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model

#: A session as the services take it: an event hook's SQLAlchemy Session, or db.session,
#: Flask-SQLAlchemy's scoped proxy of the current one (which is not a Session subclass).
AnySession: TypeAlias = Session | scoped_session[FlaskSession]

# render_as_batch: SQLite cannot ALTER most things, so migrations copy-and-move tables.
migrate = Migrate(render_as_batch=True)
csrf = CSRFProtect()
babel = Babel()
# Rate limits only where a view asks (the password and invite endpoints): no defaults.
# Storage: RATELIMIT_STORAGE_URI (memory:// unless configured; see scorebook.config).
limiter = Limiter(key_func=get_remote_address, default_limits=[])
