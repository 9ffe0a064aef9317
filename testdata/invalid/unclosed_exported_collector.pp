User <<| title == 'x' |
