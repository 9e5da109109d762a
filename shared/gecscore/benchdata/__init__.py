"""Known evaluation sets by name: the catalogue (:mod:`.catalogue`), where they live and how
they are verified (:mod:`.layout`), and fetching them from their official sources (:mod:`.fetch`).
``gecscore data list|get|path`` is the command line; docs/data.md the guide."""
from gecscore.benchdata.catalogue import CATALOGUE, DataFile, DataSet, Repository, owner_of
from gecscore.benchdata.fetch import DataUnavailable, fetch_set, named_file, require
from gecscore.benchdata.layout import data_folder, user_data_dir

__all__ = ["CATALOGUE", "DataFile", "DataSet", "DataUnavailable", "Repository", "data_folder", "fetch_set",
           "named_file", "owner_of", "require", "user_data_dir"]
