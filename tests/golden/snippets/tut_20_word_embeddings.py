# "Word Embeddings: Encoding Lexical Semantics" (PyTorch NLP tutorial)
import torch
import torch.nn as nn

torch.manual_seed(1)
word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)  # 2 words in vocab, 5 dimensional embeddings
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed)

embedding = nn.Embedding(10, 3)
input = torch.LongTensor([[1, 2, 4, 5], [4, 3, 2, 9]])
print(embedding(input))
print(embedding.weight.shape)

embedding = nn.Embedding(10, 3, padding_idx=0)
print(embedding(torch.LongTensor([[0, 2, 0, 5]])))
