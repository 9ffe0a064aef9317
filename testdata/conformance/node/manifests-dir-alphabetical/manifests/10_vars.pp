$greeting = 'from 10_vars'
