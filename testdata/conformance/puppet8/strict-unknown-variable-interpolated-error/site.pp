notify { "value=${missing}": }
