include limits
