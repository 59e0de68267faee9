"""scoregate.pipelines."""
