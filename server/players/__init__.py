"""Players: registration and return (``hello``), and their statistics."""
