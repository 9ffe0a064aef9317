notify { "classified_as=${classified_as} argc=${argc}": }
