validate_ensure('latest')
